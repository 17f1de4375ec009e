import type { KeyJobData } from '../../src/connector/model.js';
import { KeyCardDriver, type KeyCards } from '../../src/drivers-api/key-driver.js';
import type { KeyCardProtocol, KeyCheckpointRead } from '../../src/drivers-api/key-jobs.js';
import type { DeviceStatus, Driver, DriverContext, FactsOf, Job } from '../../src/drivers-api/types.js';
import type { Message } from '../../src/messages/message.js';
import { type KeyCheckpoint, keyCheckpoint, readKeyCheckpoint } from './checkpoint.js';
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
export class SaltoEncoderDriver extends KeyCardDriver<CardReply, KeyPlan, KeyCheckpoint> implements Driver {
  private readonly connection: EncoderConnection;
  private cardsCut = 0;

  constructor(
    private readonly options: SaltoEncoderOptions,
    ctx: DriverContext,
  ) {
    // The command's `KeyCutterData.Type` must not name another protocol.
    super(ctx, {
      protocol: 'industry-standard',
      words: saltoKeyWords,
      busy: options,
      encoderId: options.encoderId,
    });
    this.connection = new EncoderConnection(options, ctx);
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

  protected plan(keys: KeyJobData, job: Job): KeyPlan {
    return planKeyJob(keys, this.options, this.ctx.timezone, job.command.creatorName);
  }

  protected readCheckpoint(value: unknown, total: number): KeyCheckpointRead<KeyCheckpoint> {
    return readKeyCheckpoint(value, total);
  }

  /** Continues a job with the serial numbers its checkpoint kept. */
  protected cards(plan: KeyPlan, read: KeyCheckpointRead<KeyCheckpoint>): KeyCards<CardReply> {
    const serials = read.kind === 'ok' ? [...read.checkpoint.serials] : [];
    return {
      protocol: this.cardProtocol(plan, serials),
      encoder: plan.base.encoderId,
      told: () => ({ serials }),
    };
  }

  protected toldBy(checkpoint: KeyCheckpoint): Readonly<Record<string, string[]>> {
    return { serials: checkpoint.serials };
  }

  protected override cutsRestAfterCrash(): boolean {
    return this.options.cutRemainingAfterCrash;
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
