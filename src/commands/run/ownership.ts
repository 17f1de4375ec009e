import type { Clock } from '../../clock.js';
import { listedTypeFits, type NormalizedItem, type PlatformCommand } from '../../connector/model.js';
import { ACTIVE_STATES, type CommandState, TERMINAL_STATES } from '../../connector/wire.js';
import { AgentError, toAgentError } from '../../errors.js';
import { errorFields, type Logger } from '../../log.js';
import type { IntakeSink } from '../intake/index.js';
import type { Journal } from '../journal/index.js';
import type { NewCommand } from '../rules/index.js';
import { STARTED_PHASES } from '../rules/index.js';
import type { EffectExecutor } from './executor.js';
import type { StartCheck } from './start-check.js';
import type { EngineDevice } from './types.js';

/**
 * Step 2, what is ours, and what becomes of it: takes in what discovery found (`ingest`), the
 * WebSocket's state hints (`platformSays`) and, after a restart, the journal's unfinished commands
 * (`recover`), and turns them into machine events. Commands of devices that are not configured,
 * of kinds this agent does not handle, or in states it does not pick up are never touched. It is
 * the intake's sink (`IntakeSink`): what discovery saw of a command also goes to the start check.
 */

export interface OwnershipDeps {
  journal: Journal;
  executor: EffectExecutor;
  startCheck: StartCheck;
  devices: ReadonlyMap<string, EngineDevice>;
  clock: Clock;
  log: Logger;
}

/** The command kind a configured device type runs. */
const KIND_OF: Readonly<Record<string, string>> = {
  FiscalMachine: 'fiscal',
  KeyCutter: 'keys',
  Printer: 'print',
};

function kindFits(deviceType: string, kind: string): boolean {
  return KIND_OF[deviceType] === kind;
}

/** The states in which the agent picks a command up. */
const isPickedUp = (state: string | undefined): state is 'Pending' | 'Received' =>
  state !== undefined && (ACTIVE_STATES as readonly string[]).includes(state);

export class Ownership implements IntakeSink {
  /** Commands already warned about (a type mismatch is seen on every poll). */
  private readonly warned = new Set<string>();

  constructor(private readonly deps: OwnershipDeps) {}

  /**
   * Takes in what discovery found, in one journal transaction. Known ids are deduplicated; a
   * known one the platform now has terminal is settled. Malformed items of ours end in Error.
   * Each item is taken in on its own (a savepoint): one the journal cannot store ends in Error
   * as malformed, and the others go on. Returns the ids it accepted as new commands of ours;
   * rejects (after keeping every other item) only when the journal refused even that ending.
   */
  ingest(items: readonly NormalizedItem[], via: string): string[] {
    const accepted: string[] = [];
    if (items.length === 0) return accepted;
    let failure: unknown;
    this.deps.executor.applyMany(() => {
      for (const item of items) {
        try {
          const id = this.deps.journal.transaction(() => this.ingestOne(item, via));
          if (id !== undefined) accepted.push(id);
        } catch (e) {
          if (!this.unstorable(item, via, e)) failure ??= e;
        }
      }
    });
    if (failure !== undefined) throw failure;
    return accepted;
  }

  /** A WebSocket hint: the platform says `state` for a command we may know. */
  platformSays(commandId: string, state: CommandState): boolean {
    if (!TERMINAL_STATES.includes(state) || !this.deps.journal.has(commandId)) return false;
    this.deps.executor.apply(commandId, { type: 'platformTerminal', platformState: state });
    return true;
  }

  /**
   * A known command changed on the platform in a way the event does not spell out: what the start
   * check saw of it no longer answers, so it is read again before it starts.
   */
  platformMoved(commandId: string): void {
    this.deps.startCheck.forget(commandId);
  }

  /** A complete listing of one source's active commands, requested at `since` (see `StartCheck.absent`). */
  listedActive(source: PlatformCommand['source'], present: ReadonlySet<string>, since: number): void {
    this.deps.startCheck.absent(source, present, since);
  }

  /** Known commands a listing showed still active, recognised before parsing (`StartCheck.stillActive`). */
  stillActive(ids: Iterable<string>, at: number): void {
    this.deps.startCheck.stillActive(ids, at);
  }

  /** A complete windowed poll saw no change outside `changed` since `since` (`StartCheck.unchangedSince`). */
  unchangedSince(
    source: PlatformCommand['source'],
    since: number,
    at: number,
    changed: ReadonlySet<string>,
  ): void {
    this.deps.startCheck.unchangedSince(source, since, at, changed);
  }

  /** Whether the journal has the command (known ones are not fetched again). */
  isKnown(commandId: string): boolean {
    return this.deps.journal.has(commandId);
  }

  /**
   * After a restart: started-but-unfinished commands go to the front of their device queue to
   * be reconciled; accepted ones are queued again (and re-read before they start); finished ones
   * wait for the outbox. Commands of devices no longer configured are left as they are.
   */
  recover(): { requeued: number; reconciling: number } {
    const { journal, devices, executor, log } = this.deps;
    const counts = { requeued: 0, reconciling: 0 };
    const orphans = new Set<string>();
    for (const { id, deviceId, phase } of journal.unfinished()) {
      if (phase === 'finished') continue;
      if (!devices.has(deviceId)) {
        orphans.add(deviceId);
        continue;
      }
      executor.apply(id, { type: 'restart' });
      if (STARTED_PHASES.includes(phase)) counts.reconciling++;
      else counts.requeued++;
    }
    for (const deviceId of orphans) {
      log.warn('unfinished commands of a device that is no longer configured are left alone', {
        device: deviceId,
      });
    }
    return counts;
  }

  /**
   * An item the journal could not take in (its write threw): it ends in Error as malformed, on
   * its own. Returns false when that failed too (the journal itself is failing) or the item has
   * no id to end.
   */
  private unstorable(item: NormalizedItem, via: string, cause: unknown): boolean {
    const { journal, devices, executor, log } = this.deps;
    const id = item.ok ? item.command.id : item.id;
    const device = devices.get((item.ok ? item.command.device.id : item.deviceId) ?? '');
    const reason = toAgentError(cause);
    log.warn('a command could not be journaled; ending it in Error', {
      commandId: id,
      via,
      ...errorFields(reason),
    });
    const state = item.ok ? item.command.state : item.state;
    if (id === undefined || !device || !isPickedUp(state)) return false;
    try {
      journal.transaction(() => {
        if (journal.has(id)) return;
        const error = new AgentError(
          'COMMAND_INVALID',
          `could not be journaled: ${reason.message.slice(0, 200)}`,
          {
            details: { commandId: id },
          },
        );
        const create = { ...this.identity(device), id, kind: 'invalid' };
        executor.apply(id, { type: 'invalid', platformState: state, error: error.toJSON() }, { create });
      });
      return true;
    } catch {
      return false;
    }
  }

  /** Returns the id when the item was accepted as a new, well-formed command of ours. */
  private ingestOne(item: NormalizedItem, via: string): string | undefined {
    const { journal, devices, executor, startCheck, log } = this.deps;
    if (!item.ok) {
      const device = item.deviceId ? devices.get(item.deviceId) : undefined;
      if (!item.id || !device) return undefined;
      if (item.deviceType !== undefined && !listedTypeFits(device.type, item.deviceType)) return undefined;
      if (journal.has(item.id) || !isPickedUp(item.state)) return undefined;
      log.warn('malformed command of ours; ending it in Error', {
        commandId: item.id,
        device: device.id,
        via,
      });
      const create = { ...this.identity(device), id: item.id, kind: 'invalid' };
      const event = { type: 'invalid', platformState: item.state, error: item.error } as const;
      executor.apply(item.id, event, { create });
      return undefined;
    }
    const c = item.command;
    const device = devices.get(c.device.id);
    if (!device || c.data.kind === 'other') return undefined;
    // A fiscal machine may be listed as FiscalMachine or Printer: its kind, not the listed type, counts.
    if (!listedTypeFits(device.type, c.device.type) || !kindFits(device.type, c.data.kind)) {
      if (this.warned.has(c.id)) return undefined;
      this.warned.add(c.id);
      log.warn('command device type differs from the configuration; not touched', {
        commandId: c.id,
        device: device.id,
        platformType: c.device.type,
        configuredType: device.type,
      });
      return undefined;
    }
    if (journal.has(c.id)) {
      if (TERMINAL_STATES.includes(c.state))
        executor.apply(c.id, { type: 'platformTerminal', platformState: c.state });
      else startCheck.saw(item);
      return undefined;
    }
    if (!isPickedUp(c.state)) return undefined;
    startCheck.saw(item);
    log.debug('command discovered', { commandId: c.id, device: device.id, via });
    const create: NewCommand = {
      ...this.identity(device),
      id: c.id,
      kind: c.data.kind,
      source: c.source,
      command: c,
      createdUtc: c.createdUtc,
    };
    executor.apply(c.id, { type: 'accept', platformState: c.state }, { create });
    return c.id;
  }

  private identity(device: EngineDevice) {
    return {
      deviceId: device.id,
      deviceName: device.name,
      deviceType: device.type,
      seenAt: this.deps.clock.now(),
    };
  }
}
