import {
  cutKeyCards,
  interruptedKeyJob,
  type KeyCardProtocol,
  keyJobData,
  keyJobResult,
  reconcileKeyJob,
} from '../../src/drivers-api/key-jobs.js';
import { KeyProtocolCheck } from '../../src/drivers-api/key-protocol.js';
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
import type { Message } from '../../src/messages/message.js';
import { keyCheckpoint, readKeyCheckpoint } from './checkpoint.js';
import { cardRequestFields } from './commands.js';
import type { SaltoEncoderOptions } from './config.js';
import { EncoderConnection } from './connection.js';
import { saltoKeyWords, type saltoLabels, saltoMessages, saltoTransportWords } from './messages.js';
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
    const keys = keyJobData(job, saltoKeyWords);
    this.protocol.check(keys);
    const plan = planKeyJob(keys, this.options, this.ctx.timezone, job.command.creatorName);
    const read = readKeyCheckpoint(job.checkpoint, plan.total);
    const serials = read.kind === 'ok' ? [...read.checkpoint.serials] : [];
    await cutKeyCards({
      active: (card) => {
        this.active = card;
      },
      protocol: this.cardProtocol(plan, serials),
      words: saltoKeyWords,
      read,
      plan,
      job,
      ctx,
      device: this.ctx,
      busy: this.options,
    });
    return keyJobResult(keys, plan.base.encoderId, { serials });
  }

  async reconcile(job: Job, _signal: AbortSignal): Promise<Reconciliation> {
    const keys = keyJobData(job, saltoKeyWords);
    return reconcileKeyJob(job, keys, readKeyCheckpoint(job.checkpoint, keys.keyCount), this.ctx.log, {
      done: (cp) => keyJobResult(keys, this.options.encoderId ?? keys.keyCutterId, { serials: cp.serials }),
      interrupted: (cp) =>
        this.options.cutRemainingAfterCrash
          ? { outcome: 'not-done' }
          : { outcome: 'failed', error: interruptedKeyJob(cp, keys.lockIds, saltoKeyWords) },
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

  /**
   * The PMS protocol's framing for the key loop: one CN/CC request per card (CN first unless
   * `firstCard: copy`, so cards cut earlier in the job keep working), inside a ready link (for TCP
   * a fresh connection), and the reply's code as the card's verdict (OV: busy).
   */
  private cardProtocol(plan: KeyPlan, serials: string[]): KeyCardProtocol<CardReply> {
    return {
      exchange: (card, stored, signal) => {
        const first = card === 1 && this.options.firstCard === 'new';
        const fields = cardRequestFields(plan.request(first ? 'CN' : 'CC'));
        return this.connection.withLink(signal, async () => {
          await stored();
          try {
            const reply = await this.connection.link.request(fields, this.options.cardTimeoutMs, signal);
            this.connection.contact();
            return parseReply(reply);
          } catch (error) {
            this.connection.noteProblem(error);
            throw error;
          }
        });
      },
      judge: (reply, at) =>
        reply.ok
          ? { kind: 'written' }
          : { kind: reply.code === 'OV' ? 'busy' : 'refused', error: replyError(reply, at) },
      written: (reply) => {
        this.cardsCut++;
        if (reply.ok) serials.push(...reply.serials);
      },
      checkpoint: (counts) => keyCheckpoint(counts.total, counts.confirmed, serials, counts.inFlight),
    };
  }
}
