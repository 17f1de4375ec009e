import type { AgentEvent } from '../agent-api.js';
import type { Clock } from '../clock.js';
import { listedTypeFits, type NormalizedItem, type PlatformCommand } from '../connector/model.js';
import { type CommandState, TERMINAL_STATES } from '../connector/wire.js';
import type { Logger } from '../log.js';
import type { Journal, NewCommand } from './journal.js';
import { type Effect, INITIAL_STATE, type MachineEvent, type MachineState, transition } from './machine.js';
import type { Outbox } from './outbox.js';
import type { DeviceQueues } from './queue.js';
import { patchFor, type TransitionFacts, transitionEvents } from './transitions.js';
import type { EngineDevice } from './types.js';

/**
 * Applies machine events to commands: loads the state from the journal, computes the
 * transition, persists it together with its outbox updates in one transaction, and only then
 * performs its effects and announces it. Also the entry point of discovery (`ingest`) and of the
 * WebSocket's state hints (`platformSays`), and the restart recovery.
 *
 * Effects that need the device (re-read, execute, retry, reconcile) are returned to the caller,
 * which is always the command's device turn; the rest are performed here.
 */

export type DeviceEffect = Extract<Effect, { type: 'reread' | 'execute' | 'retry' | 'reconcile' }>;
const DEVICE_EFFECTS = new Set<Effect['type']>(['reread', 'execute', 'retry', 'reconcile']);

export interface RunnerDeps {
  journal: Journal;
  outbox: Outbox;
  queues: DeviceQueues;
  devices: ReadonlyMap<string, EngineDevice>;
  clock: Clock;
  log: Logger;
  emit: (event: AgentEvent) => void;
  /** Aborts the command's running job, if any (the `abort` effect). */
  abortJob: (commandId: string) => void;
  /** Discovery saw a command of ours (well-formed): what the check before its start may use. */
  sighted?: (item: NormalizedItem) => void;
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

interface Pending {
  effects: Array<() => void>;
  events: AgentEvent[];
}

export class Runner {
  private batch: Pending | undefined;
  /** Commands already warned about (a type mismatch is seen on every poll). */
  private readonly warned = new Set<string>();

  constructor(private readonly deps: RunnerDeps) {}

  /**
   * Applies `event`. With `create` the command is journaled first (it must be new). Returns the
   * device effects to perform, or undefined when the event does not apply in the current state
   * (logged at debug; e.g. a re-read answer arriving after a cancellation).
   */
  apply(
    commandId: string,
    event: MachineEvent,
    options: { create?: NewCommand; command?: PlatformCommand } = {},
  ): DeviceEffect[] | undefined {
    const { journal, log } = this.deps;
    const record = options.create ? undefined : journal.head(commandId);
    const before: MachineState | undefined = options.create
      ? INITIAL_STATE
      : record && { phase: record.phase, attempt: record.attempt, state: record.state };
    if (!before) {
      log.debug('event for a command not in the journal', { commandId, event: event.type });
      return undefined;
    }
    const t = transition(before, event);
    if (!t.ok) {
      log.debug('event ignored', { commandId, reason: t.reason });
      return undefined;
    }
    const at = this.deps.clock.now();
    const createdUtc = options.create?.createdUtc ?? record?.createdUtc;
    const facts: TransitionFacts = { before, after: t.state, event, effects: t.effects, at };
    if (createdUtc !== undefined) facts.createdUtc = createdUtc;
    if (options.command) facts.command = options.command;
    const deviceId = options.create?.deviceId ?? (record?.deviceId as string);
    const changed =
      options.create !== undefined ||
      before.phase !== t.state.phase ||
      before.attempt !== t.state.attempt ||
      before.state !== t.state.state ||
      t.effects.some((e) => e.type === 'report' || e.type === 'dropReports') ||
      options.command !== undefined;
    if (changed) {
      journal.transaction(() => {
        const patch = patchFor(facts);
        if (options.create) journal.insert(options.create, patch);
        else journal.update(commandId, patch);
        for (const effect of t.effects) {
          if (effect.type === 'dropReports') journal.outbox.dropCommand(commandId);
          if (effect.type === 'report') {
            const update = { commandId, state: effect.state, progress: effect.progress, notes: effect.notes };
            journal.outbox.add(update, at, this.deps.outbox.inFlight);
          }
        }
      });
    }
    const subject = {
      commandId,
      deviceId,
      deviceType: options.create?.deviceType ?? record?.deviceType ?? '',
      kind: options.create?.kind ?? record?.kind ?? '',
    };
    const events = transitionEvents(facts, subject);
    const local = t.effects.filter((e) => !DEVICE_EFFECTS.has(e.type));
    const run = () => {
      if (before.phase !== t.state.phase) {
        log.info('command transition', {
          commandId,
          device: deviceId,
          from: before.phase,
          to: t.state.phase,
          state: t.state.state,
        });
      }
      for (const effect of local) this.perform(commandId, deviceId, effect);
      if (changed) this.deps.outbox.wake();
    };
    if (this.batch) {
      this.batch.effects.push(run);
      this.batch.events.push(...events);
    } else {
      run();
      for (const e of events) this.deps.emit(e);
    }
    return t.effects.filter((e): e is DeviceEffect => DEVICE_EFFECTS.has(e.type));
  }

  /**
   * Runs `fn` (which applies events that need no device) in one journal transaction, then
   * performs the collected effects. A failure rolls every write back and performs nothing.
   */
  applyMany(fn: () => void): void {
    const batch: Pending = { effects: [], events: [] };
    this.batch = batch;
    try {
      this.deps.journal.transaction(fn);
    } finally {
      this.batch = undefined;
    }
    for (const run of batch.effects) run();
    for (const e of batch.events) this.deps.emit(e);
  }

  /**
   * Takes in what discovery found. Commands for devices not configured, of kinds this agent does
   * not handle, or in states it does not pick up are never touched. Known ids are deduplicated;
   * a known one the platform now has terminal is settled. Malformed items of ours end in Error.
   */
  ingest(items: readonly NormalizedItem[], via: string): string[] {
    const accepted: string[] = [];
    if (items.length === 0) return accepted;
    this.applyMany(() => {
      for (const item of items) {
        const id = this.ingestOne(item, via);
        if (id !== undefined) accepted.push(id);
      }
    });
    return accepted;
  }

  /** A WebSocket hint: the platform says `state` for a command we may know. */
  platformSays(commandId: string, state: CommandState): boolean {
    if (!TERMINAL_STATES.includes(state) || !this.deps.journal.has(commandId)) return false;
    this.apply(commandId, { type: 'platformTerminal', platformState: state });
    return true;
  }

  /**
   * After a restart: started-but-unfinished commands go to the front of their device queue to
   * be reconciled; accepted ones are queued again (and re-read before they start); finished ones
   * wait for the outbox. Commands of devices no longer configured are left as they are.
   */
  recover(): { requeued: number; reconciling: number } {
    const counts = { requeued: 0, reconciling: 0 };
    const orphans = new Set<string>();
    for (const { id, deviceId, phase } of this.deps.journal.unfinished()) {
      if (phase === 'finished') continue;
      if (!this.deps.devices.has(deviceId)) {
        orphans.add(deviceId);
        continue;
      }
      this.apply(id, { type: 'restart' });
      if (phase === 'running' || phase === 'cancelling' || phase === 'reconciling') counts.reconciling++;
      else counts.requeued++;
    }
    for (const deviceId of orphans) {
      this.deps.log.warn('unfinished commands of a device that is no longer configured are left alone', {
        device: deviceId,
      });
    }
    return counts;
  }

  /** Returns the id when the item was accepted as a new, well-formed command of ours. */
  private ingestOne(item: NormalizedItem, via: string): string | undefined {
    const { journal, devices, log } = this.deps;
    if (!item.ok) {
      const device = item.deviceId ? devices.get(item.deviceId) : undefined;
      if (!item.id || !device) return undefined;
      if (item.deviceType !== undefined && !listedTypeFits(device.type, item.deviceType)) return undefined;
      if (journal.has(item.id)) return undefined;
      if (item.state !== 'Pending' && item.state !== 'Received') return undefined;
      log.warn('malformed command of ours; ending it in Error', {
        commandId: item.id,
        device: device.id,
        via,
      });
      this.apply(
        item.id,
        { type: 'invalid', platformState: item.state, error: item.error.toJSON() },
        {
          create: {
            id: item.id,
            deviceId: device.id,
            deviceName: device.name,
            deviceType: device.type,
            kind: 'invalid',
            seenAt: this.deps.clock.now(),
          },
        },
      );
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
        this.apply(c.id, { type: 'platformTerminal', platformState: c.state });
      else this.deps.sighted?.(item);
      return undefined;
    }
    if (c.state !== 'Pending' && c.state !== 'Received') return undefined;
    this.deps.sighted?.(item);
    log.debug('command discovered', { commandId: c.id, device: device.id, via });
    const create: NewCommand = {
      id: c.id,
      deviceId: device.id,
      deviceName: device.name,
      deviceType: device.type,
      kind: c.data.kind,
      source: c.source,
      command: c,
      createdUtc: c.createdUtc,
      seenAt: this.deps.clock.now(),
    };
    this.apply(c.id, { type: 'accept', platformState: c.state }, { create });
    return c.id;
  }

  private perform(commandId: string, deviceId: string, effect: Effect): void {
    const { queues } = this.deps;
    switch (effect.type) {
      case 'enqueue':
        queues.add(deviceId, commandId, effect.front ? { front: true } : {});
        return;
      case 'dequeue':
        queues.remove(commandId);
        return;
      case 'abort':
        this.deps.abortJob(commandId);
        return;
      default:
        // report / dropReports were written with the transition.
        return;
    }
  }
}
