import type { KeyJobData } from '../connector/model.js';
import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Message, MessageArg } from '../messages/message.js';
import { keysForRoomsWords, keysUnreadableWords, roomsWords } from './messages.js';
import type { Job, JobResult, Reconciliation } from './types.js';

/**
 * What every key-encoder family (the PMS-protocol encoders, FIAS lock servers) does the same way
 * around a key job's checkpoint: one card at a time, each on disk before it is requested,
 *
 * - before requesting card k: `{confirmed: k-1, inFlight: k}` — card k may be written from now on;
 * - after the encoder confirms it: `{confirmed: k}`;
 * - after the encoder refuses it (or the request could not be sent): `{confirmed: k-1}`.
 *
 * Each family keeps its own checkpoint schema (what else it stores) and its own catalogue of
 * sentences; this module takes the sentences as `KeyJobWords`, so a Note already written under a
 * family's message id keeps rendering after an upgrade.
 */

/** The counts every key checkpoint holds. */
export interface CardCounts {
  total: number;
  confirmed: number;
  inFlight?: number;
}

/** The family's sentences these helpers need (its `defineMessages` builders fit). */
export interface KeyJobWords {
  notForEncoder(): Message;
  /** "2 of 3 keys were cut". */
  cut(values: { confirmed: MessageArg; total: MessageArg }): Message;
  firstInterrupted(values: { rooms: MessageArg }): Message;
  restInterrupted(values: { cut: MessageArg }): Message;
  cardInFlight(values: { sentence: MessageArg; card: MessageArg }): Message;
}

/** The job's key data; COMMAND_INVALID (with the family's Notes) for any other kind of command. */
export function keyJobData(job: Job, words: KeyJobWords): KeyJobData {
  if (job.data.kind !== 'keys') {
    throw new AgentError('COMMAND_INVALID', `A ${job.data.kind} command cannot run on a key encoder`, {
      notes: words.notForEncoder(),
    });
  }
  return job.data.keys;
}

/** A finished key job's result: "2 keys for room 202", with what the encoder told about the cards. */
export function keyJobResult(
  keys: KeyJobData,
  encoderId: string | undefined,
  cards: Readonly<Record<string, string[]>>,
): JobResult {
  const told = Object.fromEntries(Object.entries(cards).filter(([, values]) => values.length > 0));
  return {
    notes: keysForRoomsWords(keys.keyCount, keys.lockIds),
    details: { keys: keys.keyCount, rooms: keys.lockIds, ...(encoderId ? { encoderId } : {}), ...told },
  };
}

/**
 * Why stored counts cannot be believed for a job of `total` cards, or undefined when they can:
 * written for another job size, more confirmed than asked for, or a card in flight that is not
 * the next one (`inFlightMayLead` lets a family whose checkpoint only records "some later card"
 * accept any card after the confirmed ones).
 */
export function cardCountProblem(
  counts: { total?: number; confirmed: number; inFlight?: number },
  total: number,
  inFlightMayLead = false,
): string | undefined {
  if (counts.total !== undefined && counts.total !== total) {
    return `written for ${counts.total} cards, the job asks for ${total}`;
  }
  if (counts.confirmed > total) return `${counts.confirmed} cards confirmed of ${total}`;
  const { inFlight, confirmed } = counts;
  if (inFlight === undefined) return undefined;
  const next = inFlightMayLead ? inFlight > confirmed : inFlight === confirmed + 1;
  return next && inFlight <= total ? undefined : `card ${inFlight} in flight after ${confirmed} of ${total}`;
}

/** STATE_UNKNOWN for a checkpoint that exists but cannot be read: some cards may be written. */
export function unreadableKeyCheckpoint(
  problem: string,
  total: number,
  rooms: readonly string[],
): AgentError {
  return new AgentError('STATE_UNKNOWN', `unreadable key checkpoint (${problem})`, {
    notes: keysUnreadableWords(total, rooms),
  });
}

/**
 * The error of a key job a crash interrupted: how many keys were confirmed, and whether one more
 * may have been written. The driver never re-sends by itself: a new-key request would cancel the
 * cards already handed out, and a card that may be written must be tested first.
 */
export function interruptedKeyJob(cp: CardCounts, rooms: readonly string[], words: KeyJobWords): AgentError {
  const sentence =
    cp.confirmed === 0
      ? words.firstInterrupted({ rooms: roomsWords(rooms) })
      : words.restInterrupted({ cut: words.cut({ confirmed: cp.confirmed, total: cp.total }) });
  const notes =
    cp.confirmed === 0 || cp.inFlight === undefined
      ? sentence
      : words.cardInFlight({ sentence, card: cp.inFlight });
  return new AgentError(
    'STATE_UNKNOWN',
    `key job interrupted by a restart after ${cp.confirmed} of ${cp.total} cards`,
    {
      notes,
      details: {
        confirmed: cp.confirmed,
        total: cp.total,
        ...(cp.inFlight ? { inFlight: cp.inFlight } : {}),
      },
    },
  );
}

/** A stored key checkpoint as a family reads it (its own schema behind `ok`). */
export type KeyCheckpointRead<C extends CardCounts> =
  | { kind: 'absent' }
  | { kind: 'unreadable'; problem: string }
  | { kind: 'ok'; checkpoint: C };

/**
 * What a restart makes of a key job from its checkpoint alone (encoders have no record that says
 * whether a card was written): none stored or nothing started → not done; every card confirmed →
 * done with `done(cp)`; unreadable → unknown; otherwise `interrupted(cp)` (the family's choice:
 * an error, or cutting the rest).
 */
export function reconcileKeyJob<C extends CardCounts>(
  job: Job,
  keys: KeyJobData,
  read: KeyCheckpointRead<C>,
  log: Logger,
  on: { done(cp: C): JobResult; interrupted(cp: C): Reconciliation },
): Reconciliation {
  if (read.kind === 'absent') return { outcome: 'not-done' };
  if (read.kind === 'unreadable') {
    // It exists, so a card may have been written; how many, the driver cannot read.
    log.warn('unreadable checkpoint: the outcome is unknown', {
      commandId: job.commandId,
      problem: read.problem,
    });
    return { outcome: 'unknown', reason: keysUnreadableWords(keys.keyCount, keys.lockIds) };
  }
  const cp = read.checkpoint;
  if (cp.confirmed >= keys.keyCount) return { outcome: 'done', result: on.done(cp) };
  if (cp.confirmed === 0 && cp.inFlight === undefined) return { outcome: 'not-done' };
  return on.interrupted(cp);
}
