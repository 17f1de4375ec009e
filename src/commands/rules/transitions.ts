import type { PlatformCommand } from '../../connector/model.js';
import { type CommandState, TERMINAL_STATES } from '../../connector/wire.js';
import type { SerializedError } from '../../errors.js';
import type { Message } from '../../messages/message.js';
import type { AgentEvent } from '../../status-model.js';
import type { Effect, MachineEvent, MachineState } from './machine.js';
import {
  cancelledWhileRunningNotes,
  deviceUnreachableReason,
  doneDespiteCancelNotes,
  notStartedNotes,
  unknownOutcomeError,
} from './notes.js';
import type { CommandPatch, Outcome } from './records.js';

/**
 * Pure helpers that turn one machine transition into what the lifecycle writes (a journal patch)
 * and what it announces (AgentEvents). Kept apart from the lifecycle so they can be read, and
 * tested, without any I/O.
 */

export interface TransitionFacts {
  before: MachineState;
  after: MachineState;
  event: MachineEvent;
  effects: readonly Effect[];
  at: number;
  /** The command's `CreatedUtc`, for pickup and end-to-end latency. */
  createdUtc?: string;
  /** A fresh copy of the command (from a re-read) to keep in the journal. */
  command?: PlatformCommand;
}

type Report = Extract<Effect, { type: 'report' }>;
const reportsOf = (effects: readonly Effect[]): Report[] =>
  effects.filter((e): e is Report => e.type === 'report');

function sinceCreated(createdUtc: string | undefined, at: number): number | undefined {
  const created = createdUtc ? Date.parse(createdUtc) : Number.NaN;
  return Number.isFinite(created) ? Math.max(0, at - created) : undefined;
}

function outcomeOf(facts: TransitionFacts): Outcome | undefined {
  const { before, after, event } = facts;
  if (before.phase === after.phase) return undefined;
  if (after.phase === 'skipped' || after.phase === 'cancelled') return 'Cancelled';
  if (after.phase === 'closed' && before.phase === 'cancelling') return 'Processed';
  if (after.phase !== 'finished') return undefined;
  return event.type === 'executed' || (event.type === 'reconciled' && event.outcome === 'done')
    ? 'Processed'
    : 'Error';
}

function errorOf(event: MachineEvent): SerializedError | undefined {
  if (event.type === 'failed' || event.type === 'invalid') return event.error;
  if (event.type === 'reconciled' && event.outcome === 'failed') return event.error;
  if (event.type === 'reconciled' && event.outcome === 'unknown') return unknownOutcomeError(event.reason);
  if (event.type === 'reconcileFailed') return unknownOutcomeError(deviceUnreachableReason(event.error));
  return undefined;
}

function localNotes(facts: TransitionFacts): Message | undefined {
  const { before, after, event } = facts;
  if (after.phase === 'skipped') return notStartedNotes(after.state);
  if (after.phase === 'cancelled') return cancelledWhileRunningNotes();
  if (after.phase === 'closed' && before.phase === 'cancelling' && event.type === 'executed') {
    return doneDespiteCancelNotes(event.result.notes);
  }
  return undefined;
}

/** The journal write for a transition. */
export function patchFor(facts: TransitionFacts): CommandPatch {
  const { before, after, event, effects, at } = facts;
  const reports = reportsOf(effects);
  const patch: CommandPatch = { machine: after, at };
  if (reports.length > 0) patch.reported = reports.map((r) => r.state);
  if (facts.command) patch.command = facts.command;
  if (before.phase === 'new') {
    const pickup = sinceCreated(facts.createdUtc, at);
    if (pickup !== undefined) patch.pickupMs = pickup;
  }
  if (after.phase === 'running' && before.phase !== 'running') {
    patch.startedAt = at;
    patch.progress = 0;
  }
  const outcome = outcomeOf(facts);
  if (outcome) {
    patch.outcome = outcome;
    patch.finishedAt = at;
  }
  if (event.type === 'executed' || (event.type === 'reconciled' && event.outcome === 'done')) {
    patch.result = event.result;
  }
  const error = outcome ? errorOf(event) : undefined;
  if (error) patch.error = error;
  const notes = reports.findLast((r) => r.notes !== undefined)?.notes ?? localNotes(facts);
  if (notes !== undefined) patch.notes = notes;
  return patch;
}

export interface EventSubject {
  commandId: string;
  deviceId: string;
  deviceType: string;
  kind: string;
}

/**
 * One `transition` AgentEvent per platform-facing state the command moved through (each report,
 * and a state learned from the platform). `pickupMs` rides on the first Received, `endToEndMs`
 * on terminal states.
 */
export function transitionEvents(facts: TransitionFacts, subject: EventSubject): AgentEvent[] {
  const steps: CommandState[] = reportsOf(facts.effects).map((r) => r.state);
  if (facts.after.state !== facts.before.state && steps.at(-1) !== facts.after.state)
    steps.push(facts.after.state);
  const events: AgentEvent[] = [];
  let from: CommandState | undefined = facts.before.phase === 'new' ? 'Pending' : facts.before.state;
  for (const to of steps) {
    const event: Extract<AgentEvent, { type: 'transition' }> = {
      type: 'transition',
      at: facts.at,
      ...subject,
      to,
    };
    if (from !== undefined) event.from = from;
    if (to === 'Received' && facts.before.phase === 'new') {
      const pickup = sinceCreated(facts.createdUtc, facts.at);
      if (pickup !== undefined) event.pickupMs = pickup;
    }
    if (TERMINAL_STATES.includes(to)) {
      const total = sinceCreated(facts.createdUtc, facts.at);
      if (total !== undefined) event.endToEndMs = total;
      const error = errorOf(facts.event);
      if (error && to === 'Error') event.errorCode = error.code;
    }
    events.push(event);
    from = to;
  }
  return events;
}
