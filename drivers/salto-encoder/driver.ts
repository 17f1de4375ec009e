import { backoffCeiling } from '../../src/backoff.js';
import {
  keyJobData,
  keyJobResult,
  reconcileKeyJob,
  unreadableKeyCheckpoint,
} from '../../src/drivers-api/key-jobs.js';
import { KeyProtocolCheck } from '../../src/drivers-api/key-protocol.js';
import { roomsWords } from '../../src/drivers-api/messages.js';
import type {
  DeviceStatus,
  Driver,
  DriverContext,
  ExecuteContext,
  FactsOf,
  Job,
  JobResult,
  Reconciliation,
} from '../../src/drivers-api/types.js';
import { AgentError, toAgentError } from '../../src/errors.js';
import { type Message, readMessage } from '../../src/messages/message.js';
import { cutSentence, interruptedError, keyCheckpoint, readKeyCheckpoint } from './checkpoint.js';
import { type CardCommand, cardRequestFields } from './commands.js';
import type { SaltoEncoderOptions } from './config.js';
import { EncoderConnection } from './connection.js';
import { phaseOf } from './link.js';
import { type saltoLabels, saltoMessages, saltoTransportWords } from './messages.js';
import { type KeyPlan, planKeyJob } from './plan.js';
import { type CardReply, parseReply, replyError } from './replies.js';

/** What staff read first on the encoder's card; the link and the last error code are technical. */
const STAFF_FACTS: ReadonlyArray<keyof typeof saltoLabels> = ['cardsCut'];

/**
 * Cuts guest key cards on a PMS-protocol encoder (Salto and compatibles), one command and one
 * reply per card so that every card is confirmed, checkpointed and reported as a milestone.
 *
 * - The first card of a job is `CN` (a new guest card: earlier cards of the room stop working)
 *   unless `firstCard: copy`; the others are `CC` copies, so cards cut earlier in the same job keep
 *   working, also when the job continues after a crash or a retry.
 * - `execute` continues from `job.checkpoint` (confirmed cards are never cut twice), stops between
 *   cards on abort, and backs off on OV (busy).
 * - Errors carry the receptionist's sentence plus how many keys were already cut.
 */
export class SaltoEncoderDriver implements Driver {
  private readonly connection: EncoderConnection;
  /** The command's `KeyCutterData.Type` must not name another protocol. */
  private readonly protocol: KeyProtocolCheck;
  private active: { card: number; total: number } | undefined;
  private cardsCut = 0;

  constructor(
    private readonly options: SaltoEncoderOptions,
    private readonly ctx: DriverContext,
  ) {
    this.connection = new EncoderConnection(options, ctx);
    this.protocol = new KeyProtocolCheck('industry-standard', ctx.log);
  }

  /**
   * Idempotent. Resolves when the encoder answered. When it is away (unplugged, switched off, lock
   * server down) rejects with DEVICE_UNAVAILABLE, as every driver does, and a serial, HID or
   * memory link keeps reconnecting in the background: `status()` says so, and the next `open()`
   * resolves once it is back. Rejects ABORTED when `signal` fires first, and non-retryable errors
   * for problems staff must fix (no permission on the port, node-hid missing). `reconcile` needs
   * no device, only the checkpoint: it answers whether or not `open()` succeeded.
   */
  async open(signal: AbortSignal): Promise<void> {
    await this.connection.open(signal);
  }

  async execute(job: Job, ctx: ExecuteContext): Promise<JobResult> {
    const keys = keyJobData(job, saltoMessages);
    this.protocol.check(keys);
    const plan = planKeyJob(keys, this.options, this.ctx.timezone, job.command.creatorName);
    const read = readKeyCheckpoint(job.checkpoint, plan.total);
    const log = this.ctx.log.child({ commandId: job.commandId });
    if (read.kind === 'unreadable') {
      // An earlier try may have cut cards; starting again from the first (a new-guest CN) would
      // cut them twice and void the ones already handed out.
      log.warn('unreadable checkpoint: no card is cut', { problem: read.problem });
      throw unreadableKeyCheckpoint(read.problem, plan.total, plan.rooms);
    }
    const prior = read.kind === 'ok' ? read.checkpoint : undefined;
    let confirmed = prior?.confirmed ?? 0;
    const serials = [...(prior?.serials ?? [])];
    if (confirmed > 0) log.info('continuing a key job', { confirmed, total: plan.total });
    try {
      for (let card = confirmed + 1; card <= plan.total; card++) {
        if (ctx.signal.aborted) throw new AgentError('ABORTED', `cancelled before card ${card}`);
        this.active = { card, total: plan.total };
        const first = card === 1 && this.options.firstCard === 'new';
        const reply = await this.cutCard(plan, first ? 'CN' : 'CC', card, confirmed, serials, ctx);
        confirmed = card;
        this.cardsCut++;
        serials.push(...reply.serials);
        await ctx.checkpoint(keyCheckpoint(plan.total, confirmed, serials));
        log.info('card written', { card, total: plan.total, rooms: keys.lockIds });
        ctx.progress(card / plan.total, { milestone: true });
      }
    } catch (error) {
      throw this.explain(error, plan, confirmed);
    } finally {
      this.active = undefined;
    }
    return keyJobResult(keys, plan.base.encoderId, { serials });
  }

  async reconcile(job: Job, _signal: AbortSignal): Promise<Reconciliation> {
    const keys = keyJobData(job, saltoMessages);
    return reconcileKeyJob(job, keys, readKeyCheckpoint(job.checkpoint, keys.keyCount), this.ctx.log, {
      done: (cp) => keyJobResult(keys, this.options.encoderId ?? keys.keyCutterId, { serials: cp.serials }),
      interrupted: (cp) =>
        this.options.cutRemainingAfterCrash
          ? { outcome: 'not-done' }
          : { outcome: 'failed', error: interruptedError(cp, keys.lockIds) },
    });
  }

  status(): DeviceStatus {
    const c = this.connection;
    const ready = c.ready;
    const problem = c.lastProblem;
    let summary: Message;
    if (this.active) summary = saltoMessages.cutting(this.active);
    else if (ready) summary = saltoMessages.ready();
    else if (c.isReconnecting) summary = saltoMessages.unpluggedWaiting();
    else if (problem) summary = saltoMessages.notAnswering();
    else summary = saltoMessages.notConnectedYet();
    const status: DeviceStatus = {
      connected: ready,
      summary,
      warnings: ready
        ? []
        : c.isReconnecting
          ? [saltoMessages.reconnecting()]
          : problem
            ? [problem.notes]
            : [],
      facts: {
        transport: saltoTransportWords[c.transport.kind](),
        // The port as the configuration names it ("tcp 192.168.1.20:9100", "serial /dev/ttyUSB0").
        link: c.transport.description,
        cardsCut: this.cardsCut,
        lastError: problem?.code ?? null,
      } satisfies FactsOf<typeof saltoLabels>,
      staffFacts: STAFF_FACTS,
    };
    if (c.lastContact !== undefined) status.lastContact = c.lastContact;
    return status;
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** One card: ready link, checkpoint, request, OV back-off. Resolves only on a confirmed card. */
  private async cutCard(
    plan: KeyPlan,
    command: CardCommand,
    card: number,
    confirmed: number,
    serials: string[],
    ctx: ExecuteContext,
  ): Promise<Extract<CardReply, { ok: true }>> {
    const fields = cardRequestFields(plan.request(command));
    for (let busy = 0; ; busy++) {
      const reply = await this.connection.withLink(ctx.signal, async () => {
        await ctx.checkpoint(keyCheckpoint(plan.total, confirmed, serials, card));
        try {
          const replyFields = await this.connection.link.request(
            fields,
            this.options.cardTimeoutMs,
            ctx.signal,
          );
          this.connection.contact();
          return parseReply(replyFields);
        } catch (error) {
          this.connection.noteProblem(error);
          throw error;
        }
      });
      if (reply.ok) return reply;
      // An error reply is definitive: this card was not written.
      await ctx.checkpoint(keyCheckpoint(plan.total, confirmed, serials));
      if (reply.code !== 'OV' || busy >= this.options.busyRetries) {
        throw replyError(reply, { rooms: plan.rooms, card, total: plan.total });
      }
      const wait = backoffCeiling(busy, { minMs: this.options.busyBackoffMs, maxMs: 30_000 });
      this.ctx.log.debug('encoder busy (OV); backing off', { card, waitMs: wait });
      await this.ctx.clock.sleep(wait, ctx.signal).catch((cause: unknown) => {
        throw new AgentError('ABORTED', `cancelled while the encoder was busy (card ${card})`, { cause });
      });
    }
  }

  /** Adds what happened to the cards so far to the error staff will read. */
  private explain(error: unknown, plan: KeyPlan, confirmed: number): AgentError {
    const e = toAgentError(error, 'DEVICE_ERROR');
    const card = confirmed + 1;
    const rooms = roomsWords(plan.rooms);
    const withCutSoFar = (sentence: Message): Message =>
      confirmed > 0
        ? saltoMessages.cutBefore({ sentence, cut: cutSentence(confirmed, plan.total) })
        : sentence;
    const details = { ...e.details, confirmed, total: plan.total };
    if (e.code === 'ABORTED') {
      const notes =
        confirmed === 0
          ? saltoMessages.cancelledBeforeAny()
          : saltoMessages.cancelledAfter({ cut: cutSentence(confirmed, plan.total), rooms });
      return new AgentError('ABORTED', e.message, { notes, details, cause: e });
    }
    if (e.code === 'COMMAND_INVALID' || e.code === 'CONFIG_INVALID') return e;
    if (phaseOf(e) === 'reply') {
      const where = { card, total: plan.total, rooms };
      const what =
        e.code === 'DEVICE_UNAVAILABLE'
          ? saltoMessages.disconnectedAt(where)
          : saltoMessages.unconfirmedAt(where);
      return new AgentError(e.code, e.message, {
        notes: withCutSoFar(what),
        retryable: false,
        details,
        cause: e,
      });
    }
    if (confirmed === 0) {
      Object.assign(e.details, details);
      return e;
    }
    return new AgentError(e.code, e.message, {
      notes: withCutSoFar(readMessage(e.notes)),
      retryable: e.retryable,
      details,
      cause: e,
    });
  }
}
