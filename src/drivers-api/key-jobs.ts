import type { z } from 'zod';
import { Backoff } from '../backoff.js';
import type { Clock } from '../clock.js';
import type { KeyJobData } from '../connector/model.js';
import { AgentError, isAgentError, toAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { type Message, type MessageArg, readMessage } from '../messages/message.js';
import { formatIssues } from '../zod-issues.js';
import { jobDataOf } from './job-data.js';
import { deviceMessages, keysForRoomsWords, keysUnreadableWords, roomsWords } from './messages.js';
import type { ExecuteContext, Job, JobResult, Reconciliation } from './types.js';

/**
 * What every key-encoder family (the PMS-protocol encoders, FIAS lock servers) does the same way:
 * the checks of a key command, the one card loop (`cutKeyCards`: checkpoints, busy retries, at
 * most once), the result, and what a restart makes of a stored checkpoint. A family supplies its
 * framing and the meaning of its answers (`KeyCardProtocol`), its checkpoint schema (what else it
 * stores) and its catalogue of sentences, taken here as `KeyJobWords`, so a Note already written
 * under a family's message id keeps rendering after an upgrade.
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
  noKeys(): Message;
  tooManyKeys(values: { count: MessageArg; max: MessageArg }): Message;
  /** "2 of 3 keys were cut". */
  cut(values: { confirmed: MessageArg; total: MessageArg }): Message;
  /** "{sentence} 1 of 3 keys was cut before this." */
  cutBefore(values: { sentence: MessageArg; cut: MessageArg }): Message;
  cancelledBeforeAny(): Message;
  cancelledAfter(values: { cut: MessageArg; rooms: MessageArg }): Message;
  /** The link dropped while card k was being written: it may be written. */
  disconnectedAt(values: { card: MessageArg; total: MessageArg; rooms: MessageArg }): Message;
  /** No answer for card k: it may be written. */
  unansweredAt(values: { card: MessageArg; total: MessageArg; rooms: MessageArg }): Message;
  firstInterrupted(values: { rooms: MessageArg }): Message;
  restInterrupted(values: { cut: MessageArg }): Message;
  cardInFlight(values: { sentence: MessageArg; card: MessageArg }): Message;
}

/** The job's key data; COMMAND_INVALID (with the family's Notes) for any other kind of command. */
export function keyJobData(job: Job, words: KeyJobWords): KeyJobData {
  return jobDataOf(job, 'keys', words.notForEncoder());
}

/**
 * What every family refuses before planning anything (COMMAND_INVALID, nothing sent): no key or
 * more than `maxKeys`, no room.
 */
export function checkKeyCount(keys: KeyJobData, maxKeys: number, words: KeyJobWords): void {
  const invalid = (message: string, notes: Message) => new AgentError('COMMAND_INVALID', message, { notes });
  if (!Number.isInteger(keys.keyCount) || keys.keyCount < 1) {
    throw invalid(`KeyCount ${keys.keyCount} is not a positive number`, words.noKeys());
  }
  if (keys.keyCount > maxKeys) {
    throw invalid(
      `KeyCount ${keys.keyCount} exceeds maxKeys ${maxKeys}`,
      words.tooManyKeys({ count: keys.keyCount, max: maxKeys }),
    );
  }
  if (keys.lockIds.length === 0) {
    throw invalid('The key command names no room', deviceMessages.noRoomAssigned());
  }
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

/**
 * Reads a stored key checkpoint with the family's `schema`, for a job of `total` cards: absent,
 * unreadable (why: another shape, or counts `cardCountProblem` does not believe), or the counts
 * as `build` makes them. Never throws.
 */
export function readCardCheckpoint<P extends { total?: number; confirmed: number; inFlight?: number }, C>(
  value: unknown,
  total: number,
  schema: z.ZodType<P>,
  build: (parsed: P) => C,
  inFlightMayLead = false,
): KeyCheckpointRead<C> {
  if (value === undefined) return { kind: 'absent' };
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    return {
      kind: 'unreadable',
      problem: formatIssues(parsed.error, { limit: 1, root: 'checkpoint' }) || 'invalid',
    };
  }
  const problem = cardCountProblem(parsed.data, total, inFlightMayLead);
  if (problem) return { kind: 'unreadable', problem };
  return { kind: 'ok', checkpoint: build(parsed.data) };
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
export type KeyCheckpointRead<C> =
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

/** How far a key exchange got, in its error's `details.phase`. */
export type ExchangePhase = 'send' | 'reply';

/**
 * `send`: nothing reached the device (the link was down, the request could not be written, the
 * device refused the frame itself); `reply`: the request went out and its answer was lost, late or
 * garbled — the card may have been written. Undefined for errors that name no phase.
 */
export function exchangePhase(error: unknown): ExchangePhase | undefined {
  return isAgentError(error) ? (error.details.phase as ExchangePhase | undefined) : undefined;
}

/**
 * What a device's answer means for its card: written, or not written — the device was busy (ask
 * again after a pause) or refused it — with the error staff read if the job ends there.
 */
export type CardOutcome = { kind: 'written' } | { kind: 'busy' | 'refused'; error: AgentError };

/** Where a key job stands, for the sentences staff read. */
export interface CardPlace {
  card: number;
  total: number;
  rooms: readonly string[];
}

/**
 * What a key family supplies to `cutKeyCards`: framing and answers, nothing about checkpoints,
 * retries or what staff read of an interrupted job.
 */
export interface KeyCardProtocol<Answer> {
  /**
   * One request for card `card` (the first card of a job is the family's "new" key unless it is
   * configured to copy). It builds the request first — a refusal that needs no device throws
   * here, before `stored` — then takes the device's turn, awaits `stored()` (the checkpoint "card
   * `card` in flight", on disk) and only then sends. Its errors carry `details.phase`.
   */
  exchange(card: number, stored: () => Promise<void>, signal: AbortSignal): Promise<Answer>;
  judge(answer: Answer, at: CardPlace): CardOutcome;
  /** Keeps what a written card's answer told (a serial number, the lock server's text). */
  written(answer: Answer): void;
  /** The checkpoint stored for these counts: the family's schema (it may add what `written` kept). */
  checkpoint(counts: CardCounts): unknown;
}

/** One key job for `cutKeyCards`. */
export interface KeyCardRun<Answer, C extends CardCounts> {
  protocol: KeyCardProtocol<Answer>;
  words: KeyJobWords;
  /** The job's stored checkpoint as the family read it. */
  read: KeyCheckpointRead<C>;
  /** How many cards, for which rooms (the platform's, for Notes). */
  plan: { total: number; rooms: readonly string[] };
  job: Pick<Job, 'commandId'>;
  ctx: ExecuteContext;
  /** The driver's clock, and its log (a child naming the command logs the job). */
  device: { clock: Clock; log: Logger };
  /** A busy card is asked again `busyRetries` times, after `busyBackoffMs` doubling (capped). */
  busy: { busyRetries: number; busyBackoffMs: number };
  /** Told of each card as it starts (undefined when the job ends), for the status page. */
  active?(card: { card: number; total: number } | undefined): void;
  /** Told of every failure staff read, for the status page's last error. */
  problem?(error: AgentError): void;
}

/**
 * The longest pause before asking a busy encoder again: a person waits at the desk, and a
 * busy encoder is one still finishing another card, so a retry later than this helps nobody.
 */
export const KEY_BUSY_MAX_WAIT_MS = 30_000;

/**
 * The one key-job loop of every encoder family: cards one at a time, from the first the stored
 * checkpoint does not confirm (a confirmed card is never cut again), each exchange wrapped in
 * checkpoints that are awaited — on disk — before the request goes out and before anything
 * happens after its answer (the next card, the milestone, the result):
 *
 * - before the request of card k: `{confirmed: k-1, inFlight: k}`;
 * - after a written card: `{confirmed: k}`, then a progress milestone;
 * - after a refusal, a busy answer or a request that never left (phase `send`): `{confirmed: k-1}`.
 *
 * A busy answer is asked again after the shared backoff (`src/backoff.ts`), at most
 * `busyRetries` times, each pause at most `KEY_BUSY_MAX_WAIT_MS`. A request whose answer is lost
 * (phase `reply`) ends the job, never sent again: the card may be written, and a new key would
 * void the cards already handed out. The job stops between cards when cancelled. Every error
 * says how many keys were cut before it; a retry is offered (`nothingSent`) only when no card was.
 * Resolves once every card is confirmed; an unreadable checkpoint ends it before anything is sent.
 */
export async function cutKeyCards<A, C extends CardCounts>(run: KeyCardRun<A, C>): Promise<void> {
  const { read, ctx } = run;
  const { total, rooms } = run.plan;
  const log = run.device.log.child({ commandId: run.job.commandId });
  if (read.kind === 'unreadable') {
    // An earlier try may have cut cards; starting again from the first would void them.
    log.warn('unreadable checkpoint: no key is requested', { problem: read.problem });
    throw unreadableKeyCheckpoint(read.problem, total, rooms);
  }
  let confirmed = read.kind === 'ok' ? read.checkpoint.confirmed : 0;
  if (confirmed > 0) log.info('continuing a key job', { confirmed, total });
  try {
    for (let card = confirmed + 1; card <= total; card++) {
      if (ctx.signal.aborted) throw new AgentError('ABORTED', `cancelled before key ${card}`);
      run.active?.({ card, total });
      await cutOneCard(run, log, card, confirmed);
      confirmed = card;
      await ctx.checkpoint(run.protocol.checkpoint({ total, confirmed }));
      log.info('key cut', { card, total, rooms });
      ctx.progress(card / total, { milestone: true });
    }
  } catch (error) {
    const e = explainKeyError(error, { confirmed, total, rooms }, run.words);
    if (e.code !== 'ABORTED' && e.code !== 'COMMAND_INVALID') run.problem?.(e);
    throw e;
  } finally {
    run.active?.(undefined);
  }
}

/** One card, asked again while the encoder is busy; resolves once it is written. */
async function cutOneCard<A, C extends CardCounts>(
  run: KeyCardRun<A, C>,
  log: Logger,
  card: number,
  confirmed: number,
): Promise<void> {
  const { protocol, ctx } = run;
  const { total, rooms } = run.plan;
  const delays = new Backoff({ minMs: run.busy.busyBackoffMs, maxMs: KEY_BUSY_MAX_WAIT_MS });
  const notInFlight = () => ctx.checkpoint(protocol.checkpoint({ total, confirmed }));
  for (;;) {
    let inFlight = false;
    let answer: A;
    try {
      answer = await protocol.exchange(
        card,
        async () => {
          await ctx.checkpoint(protocol.checkpoint({ total, confirmed, inFlight: card }));
          inFlight = true;
        },
        ctx.signal,
      );
    } catch (error) {
      if (inFlight && exchangePhase(error) === 'send') await notInFlight();
      throw error;
    }
    const outcome = protocol.judge(answer, { card, total, rooms });
    if (outcome.kind === 'written') {
      protocol.written(answer);
      return;
    }
    // A refusal or a busy answer is definitive: this card was not written.
    await notInFlight();
    if (outcome.kind === 'refused' || delays.failures >= run.busy.busyRetries) throw outcome.error;
    const waitMs = delays.next();
    log.debug('encoder busy; asking again after a pause', { card, waitMs });
    await run.device.clock.sleep(waitMs, ctx.signal).catch((cause: unknown) => {
      throw new AgentError('ABORTED', `cancelled while the encoder was busy (key ${card})`, { cause });
    });
  }
}

/** Adds what happened to the keys so far to the error staff will read. */
function explainKeyError(
  error: unknown,
  at: { confirmed: number; total: number; rooms: readonly string[] },
  words: KeyJobWords,
): AgentError {
  const e = toAgentError(error, 'DEVICE_ERROR');
  const { confirmed, total } = at;
  const rooms = roomsWords(at.rooms);
  const cut = () => words.cut({ confirmed, total });
  const withCutSoFar = (sentence: Message): Message =>
    confirmed > 0 ? words.cutBefore({ sentence, cut: cut() }) : sentence;
  const details = { ...e.details, confirmed, total };
  if (e.code === 'ABORTED') {
    const notes = confirmed === 0 ? words.cancelledBeforeAny() : words.cancelledAfter({ cut: cut(), rooms });
    return new AgentError('ABORTED', e.message, { notes, details, cause: e });
  }
  if (exchangePhase(e) === 'reply') {
    const where = { card: confirmed + 1, total, rooms };
    const what = e.code === 'DEVICE_UNAVAILABLE' ? words.disconnectedAt(where) : words.unansweredAt(where);
    return new AgentError(e.code, e.message, {
      notes: withCutSoFar(what),
      retryable: false,
      details,
      cause: e,
    });
  }
  // Nothing of this card reached the device; a retry may only happen when no card did.
  const nothingSent = confirmed === 0 && e.details.nothingSent === true;
  return new AgentError(e.code, e.message, {
    notes: withCutSoFar(readMessage(e.notes)),
    retryable: e.retryable,
    details: { ...details, nothingSent },
    cause: e,
  });
}
