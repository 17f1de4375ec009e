import type { Clock } from '../../clock.js';
import type { PlatformCommand } from '../../connector/model.js';
import type { Logger } from '../../log.js';
import type { MessageRenderer } from '../../messages/render.js';
import type { AgentEvent } from '../../status-model.js';
import type { Journal } from '../journal/index.js';
import type { NewCommand } from '../rules/index.js';
import {
  type CommandRetryPolicy,
  type Effect,
  INITIAL_STATE,
  type MachineEvent,
  type MachineState,
  patchFor,
  type TransitionFacts,
  transition,
  transitionEvents,
} from '../rules/index.js';
import type { OutboxWriter } from './types.js';

/**
 * The first half of every event: load the command's state from the journal, let the machine decide
 * (`transition`), and write the new state together with its outbox updates in one transaction.
 * Nothing here performs an effect: the executor does, once the write is committed (so a state is on
 * disk before anyone hears of it).
 */

export interface ApplyOptions {
  /** Journal the command first (it must be new): discovery's `accept` and `invalid`. */
  create?: NewCommand;
  /** A fresh copy of the command to keep (a re-read before start). */
  command?: PlatformCommand;
}

/** A transition that happened and is written. */
export interface Applied {
  commandId: string;
  deviceId: string;
  before: MachineState;
  after: MachineState;
  effects: readonly Effect[];
  /** The AgentEvents to announce once the effects are performed. */
  events: readonly AgentEvent[];
  /** The transition wrote to the journal (its state or its outbox changed). */
  wrote: boolean;
}

export interface LifecycleDeps {
  journal: Journal;
  outbox: OutboxWriter;
  clock: Clock;
  log: Logger;
  policy: CommandRetryPolicy;
  /** Renders Notes in the language the platform's users read, as they are queued for it. */
  notesIn: MessageRenderer;
}

export class Lifecycle {
  constructor(private readonly deps: LifecycleDeps) {}

  /**
   * Applies `event` to a command and writes the outcome. Returns undefined when the command is
   * not in the journal or the event does not apply in its current state (logged at debug; e.g. a
   * re-read answer arriving after a cancellation). Throws JOURNAL_ERROR when the write fails.
   */
  apply(commandId: string, event: MachineEvent, options: ApplyOptions = {}): Applied | undefined {
    const { journal, log } = this.deps;
    const { create, command } = options;
    const record = create ? undefined : journal.head(commandId);
    const before: MachineState | undefined = create
      ? INITIAL_STATE
      : record && { phase: record.phase, attempt: record.attempt, state: record.state };
    if (!before) {
      log.debug('event for a command not in the journal', { commandId, event: event.type });
      return undefined;
    }
    const t = transition(before, event, this.deps.policy);
    if (!t.ok) {
      log.debug('event ignored', { commandId, reason: t.reason });
      return undefined;
    }
    const at = this.deps.clock.now();
    const facts: TransitionFacts = { before, after: t.state, event, effects: t.effects, at };
    const createdUtc = create?.createdUtc ?? record?.createdUtc;
    if (createdUtc !== undefined) facts.createdUtc = createdUtc;
    if (command) facts.command = command;
    const wrote =
      create !== undefined ||
      command !== undefined ||
      before.phase !== t.state.phase ||
      before.attempt !== t.state.attempt ||
      before.state !== t.state.state ||
      t.effects.some((e) => e.type === 'report' || e.type === 'dropReports');
    if (wrote) this.write(commandId, facts, create);
    const deviceId = create?.deviceId ?? (record?.deviceId as string);
    const subject = {
      commandId,
      deviceId,
      deviceType: create?.deviceType ?? record?.deviceType ?? '',
      kind: create?.kind ?? record?.kind ?? '',
    };
    const events = transitionEvents(facts, subject);
    return { commandId, deviceId, before, after: t.state, effects: t.effects, events, wrote };
  }

  /** Runs `fn` in one journal transaction (a savepoint when nested). */
  transaction(fn: () => void): void {
    this.deps.journal.transaction(fn);
  }

  private write(commandId: string, facts: TransitionFacts, create: NewCommand | undefined): void {
    const { journal, outbox } = this.deps;
    journal.transaction(() => {
      const patch = patchFor(facts);
      if (create) journal.insert(create, patch);
      else journal.update(commandId, patch);
      for (const effect of facts.effects) {
        if (effect.type === 'dropReports') outbox.drop(commandId, facts.at);
        if (effect.type === 'report') {
          const { state, progress } = effect;
          const notes = effect.notes && this.deps.notesIn.render(effect.notes);
          outbox.add({ commandId, state, progress, notes }, facts.at);
        }
      }
    });
  }
}
