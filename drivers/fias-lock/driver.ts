import {
  keyJobData,
  keyJobResult,
  reconcileKeyJob,
  unreadableKeyCheckpoint,
} from '../../src/drivers-api/key-jobs.js';
import { KeyProtocolCheck } from '../../src/drivers-api/key-protocol.js';
import { roomsWords } from '../../src/drivers-api/messages.js';
import { statusOrUnavailable } from '../../src/drivers-api/status.js';
import type {
  DeviceStatus,
  Driver,
  DriverContext,
  ExecuteContext,
  Job,
  JobResult,
  Reconciliation,
} from '../../src/drivers-api/types.js';
import { AgentError, toAgentError } from '../../src/errors.js';
import { type Message, readMessage } from '../../src/messages/message.js';
import { answerError, answerKind, type KeyAnswer, readAnswer } from './answers.js';
import { cutSentence, interruptedError, keyCheckpoint, readKeyCheckpoint } from './checkpoint.js';
import type { FiasLockOptions } from './config.js';
import { acquireEndpoint, type FiasEndpoint } from './endpoint.js';
import { phaseOf } from './link.js';
import { fiasMessages } from './messages.js';
import { type KeyPlan, planKeyJob } from './plan.js';
import { type LastKey, linkStatus } from './status.js';

/**
 * Cuts guest keys through a FIAS lock server (dormakaba Ambiance and Saflok's FIAS interface,
 * Salto Space's "Oracle Hospitality PMS (FIAS)", any Oracle-certified key system): the agent is
 * the PMS, the lock server connects to it, and every card is one key request (KR) answered by one
 * key answer (KA) — confirmed, checkpointed and reported as a progress milestone.
 *
 * - `open()` listens (once) and waits up to `openWaitMs` for the lock server's link to be Alive;
 *   without one it rejects DEVICE_UNAVAILABLE and keeps listening, so the lock server may
 *   connect whenever it comes back.
 * - `execute` continues from `job.checkpoint` (confirmed cards are never cut again), stops
 *   between cards on abort, pauses and retries a card the lock server answers BY/RY.
 * - At most once: a KR whose answer is lost (link dropped, no KA in time, agent killed) ends in
 *   Error saying that card may have been written and must be tested — never a silent resend.
 */
export class FiasLockDriver implements Driver {
  private endpoint: FiasEndpoint | undefined;
  private readonly protocol: KeyProtocolCheck;
  private active: { card: number; total: number } | undefined;
  private keysCut = 0;
  private lastKey: LastKey | undefined;
  private lastProblem: AgentError | undefined;

  constructor(
    private readonly options: FiasLockOptions,
    private readonly ctx: DriverContext,
  ) {
    this.protocol = new KeyProtocolCheck('fias', ctx.log);
  }

  async open(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new AgentError('ABORTED', 'open cancelled');
    this.endpoint ??= acquireEndpoint(this.options, this.ctx);
    try {
      await this.endpoint.listen();
      await this.endpoint.waitAlive(signal, this.options.openWaitMs);
      this.lastProblem = undefined;
    } catch (error) {
      const e = toAgentError(error, 'DEVICE_UNAVAILABLE');
      if (e.code !== 'ABORTED') this.lastProblem = e;
      throw e;
    }
  }

  async execute(job: Job, ctx: ExecuteContext): Promise<JobResult> {
    const keys = keyJobData(job, fiasMessages);
    this.protocol.check(keys);
    const plan = planKeyJob(keys, this.options, this.ctx.timezone, job.command.creatorName);
    const read = readKeyCheckpoint(job.checkpoint, plan.total);
    const log = this.ctx.log.child({ commandId: job.commandId });
    if (read.kind === 'unreadable') {
      // An earlier try may have cut cards; starting again with a new key (KTN) would void them.
      log.warn('unreadable checkpoint: no key is requested', { problem: read.problem });
      throw unreadableKeyCheckpoint(read.problem, plan.total, plan.rooms);
    }
    const prior = read.kind === 'ok' ? read.checkpoint : undefined;
    let confirmed = prior?.confirmed ?? 0;
    const answers: string[] = [];
    if (ctx.signal.aborted) throw new AgentError('ABORTED', 'cancelled before the first key');
    if (confirmed > 0) log.info('continuing a key job', { confirmed, total: plan.total });
    try {
      for (let card = confirmed + 1; card <= plan.total; card++) {
        if (ctx.signal.aborted) throw new AgentError('ABORTED', `cancelled before key ${card}`);
        this.active = { card, total: plan.total };
        const first = card === 1 && this.options.firstKey === 'new';
        const answer = await this.cutCard(plan, first ? 'N' : 'D', card, confirmed, ctx);
        confirmed = card;
        this.keysCut++;
        if (answer.text) answers.push(answer.text);
        ctx.checkpoint(keyCheckpoint(plan.total, confirmed)).catch((error: unknown) => {
          log.warn('could not store the checkpoint after a key', { error: String(error) });
        });
        log.info('key cut', { card, total: plan.total, rooms: keys.lockIds });
        ctx.progress(card / plan.total, { milestone: true });
      }
    } catch (error) {
      throw this.explain(error, plan, confirmed);
    } finally {
      this.active = undefined;
    }
    this.lastKey = { count: plan.total, rooms: keys.lockIds, at: this.ctx.clock.now() };
    return keyJobResult(keys, plan.encoder, { answers });
  }

  async reconcile(job: Job, _signal: AbortSignal): Promise<Reconciliation> {
    const keys = keyJobData(job, fiasMessages);
    return reconcileKeyJob(job, keys, readKeyCheckpoint(job.checkpoint, keys.keyCount), this.ctx.log, {
      done: () => keyJobResult(keys, this.options.encoderId ?? keys.keyCutterId, {}),
      interrupted: (cp) => ({ outcome: 'failed', error: interruptedError(cp, keys.lockIds) }),
    });
  }

  status(): DeviceStatus {
    return statusOrUnavailable(() =>
      linkStatus({
        options: this.options,
        endpoint: this.endpoint?.state,
        active: this.active,
        keysCut: this.keysCut,
        lastKey: this.lastKey,
        lastProblem: this.lastProblem,
      }),
    );
  }

  async close(): Promise<void> {
    const endpoint = this.endpoint;
    this.endpoint = undefined;
    await endpoint?.release().catch(() => undefined);
  }

  /**
   * One card: an Alive link, the checkpoint on disk, the KR, its KA. Resolves only on OK; pauses
   * and asks again (as the same key type) on BY/RY up to `busyRetries`.
   */
  private async cutCard(
    plan: KeyPlan,
    type: 'N' | 'D',
    card: number,
    confirmed: number,
    ctx: ExecuteContext,
  ): Promise<KeyAnswer> {
    const key = {
      workstation: plan.workstation,
      encoder: plan.encoder,
      ...(plan.reservation ? { reservation: plan.reservation } : {}),
    };
    for (let busy = 0; ; busy++) {
      const endpoint = this.endpoint;
      const link = endpoint?.link;
      if (!endpoint || link?.state !== 'alive') {
        throw (
          endpoint?.unavailable() ??
          new AgentError('DEVICE_UNAVAILABLE', 'the device is not open', { details: { nothingSent: true } })
        );
      }
      // Refusals that need the lock server's description (several rooms, no SI) come before the checkpoint.
      const kr = plan.request(type, link.description, this.ctx.clock.now());
      const answer = await endpoint.turn(`${key.workstation}|${key.encoder}`, async () => {
        await ctx.checkpoint(keyCheckpoint(plan.total, confirmed, card));
        try {
          return readAnswer(await link.request(kr, key, this.options.answerTimeoutMs, ctx.signal));
        } catch (error) {
          if (phaseOf(error) === 'send') await ctx.checkpoint(keyCheckpoint(plan.total, confirmed));
          throw error;
        }
      });
      const kind = answerKind(answer);
      if (kind === 'written') return answer;
      // A refusal is definitive: this card was not written.
      await ctx.checkpoint(keyCheckpoint(plan.total, confirmed));
      if (kind === 'refused' || busy >= this.options.busyRetries) {
        throw answerError(answer, { rooms: plan.rooms, card, total: plan.total });
      }
      const wait = this.options.busyBackoffMs * 2 ** busy;
      this.ctx.log.debug('encoder busy; asking again after a pause', {
        card,
        status: answer.status,
        waitMs: wait,
      });
      await this.ctx.clock.sleep(wait, ctx.signal).catch((cause: unknown) => {
        throw new AgentError('ABORTED', `cancelled while the encoder was busy (key ${card})`, { cause });
      });
    }
  }

  /** Adds what happened to the keys so far to the error staff will read. */
  private explain(error: unknown, plan: KeyPlan, confirmed: number): AgentError {
    const e = toAgentError(error, 'DEVICE_ERROR');
    if (e.code !== 'ABORTED' && e.code !== 'COMMAND_INVALID') this.lastProblem = e;
    const card = confirmed + 1;
    const rooms = roomsWords(plan.rooms);
    const withCutSoFar = (sentence: Message): Message =>
      confirmed > 0
        ? fiasMessages.cutBefore({ sentence, cut: cutSentence(confirmed, plan.total) })
        : sentence;
    const details = { ...e.details, confirmed, total: plan.total };
    if (e.code === 'ABORTED') {
      const notes =
        confirmed === 0
          ? fiasMessages.cancelledBeforeAny()
          : fiasMessages.cancelledAfter({ cut: cutSentence(confirmed, plan.total), rooms });
      return new AgentError('ABORTED', e.message, { notes, details, cause: e });
    }
    if (phaseOf(e) === 'reply') {
      // The KR went out and its answer is lost: the card may be written; never sent again.
      const where = { card, total: plan.total, rooms };
      const what =
        e.code === 'DEVICE_UNAVAILABLE'
          ? fiasMessages.disconnectedAt(where)
          : fiasMessages.unansweredAt(where);
      return new AgentError(e.code, e.message, {
        notes: withCutSoFar(what),
        retryable: false,
        details,
        cause: e,
      });
    }
    // Nothing of this card reached the lock server; a retry may only happen when no card did.
    const nothingSent = confirmed === 0 && e.details.nothingSent === true;
    return new AgentError(e.code, e.message, {
      notes: withCutSoFar(readMessage(e.notes)),
      retryable: e.retryable,
      details: { ...details, nothingSent },
      cause: e,
    });
  }
}
