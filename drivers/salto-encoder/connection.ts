import { Backoff } from '../../src/backoff.js';
import type { DriverContext } from '../../src/drivers-api/types.js';
import { AgentError, isAgentError } from '../../src/errors.js';
import { Mutex } from '../../src/mutex.js';
import { pollUntil } from '../../src/periodic.js';
import type { Transport } from '../../src/transport/types.js';
import type { SaltoEncoderOptions } from './config.js';
import { transportSpec } from './config.js';
import { EncoderLink } from './link.js';
import { saltoMessages } from './messages.js';

/**
 * Owns the encoder's transport and keeps it usable without restarting the agent.
 *
 * - Persistent links (serial, HID, memory) stay open between jobs. When the device vanishes
 *   (`onClose`: USB unplug, peer gone) a background loop re-opens it with exponential back-off
 *   (`reconnectMinMs` … `reconnectMaxMs`); a job that arrives meanwhile tries to open at once.
 * - TCP to a lock server uses one connection per request (`withLink` opens and closes around it);
 *   there is nothing to keep alive.
 * - "Ready" means open and, with `probe`, answered ENQ with ACK or NAK (present, maybe busy).
 */
export class EncoderConnection {
  readonly transport: Transport;
  readonly link: EncoderLink;
  readonly persistent: boolean;
  private verified = false;
  private opening: Promise<void> | undefined;
  /** TCP exchanges take turns: one connection at a time. */
  private readonly tcpTurn = new Mutex();
  private reconnecting = false;
  private lifetime = new AbortController();
  private closedByUs = false;
  lastContact: number | undefined;
  lastProblem: AgentError | undefined;

  constructor(
    private readonly options: SaltoEncoderOptions,
    private readonly ctx: DriverContext,
  ) {
    this.transport = ctx.io.create(transportSpec(options));
    this.persistent = this.transport.kind !== 'tcp';
    this.link = new EncoderLink(this.transport, {
      clock: ctx.clock,
      log: ctx.log,
      ackTimeoutMs: options.ackTimeoutMs,
      nakRetries: options.nakRetries,
    });
    this.transport.onClose((error) => {
      this.verified = false;
      if (!this.persistent || this.closedByUs) return;
      this.lastProblem = new AgentError('DEVICE_UNAVAILABLE', `${this.transport.description} vanished`, {
        cause: error,
        notes: saltoMessages.vanished(),
      });
      ctx.log.warn('encoder link lost; reconnecting in the background', { error });
      this.startReconnecting();
    });
  }

  /** True when the last contact worked and (for persistent links) the link is still open. */
  get ready(): boolean {
    if (this.persistent) return this.transport.isOpen && this.verified;
    return this.lastContact !== undefined && this.lastProblem === undefined;
  }

  get isReconnecting(): boolean {
    return this.reconnecting;
  }

  /**
   * Makes the link ready. Persistent links: open + probe, shared by concurrent callers.
   * TCP: one probe connection. Rejects DEVICE_UNAVAILABLE (then keeps retrying in the background
   * for persistent links) or ABORTED.
   */
  async open(signal?: AbortSignal): Promise<void> {
    this.closedByUs = false;
    if (this.lifetime.signal.aborted) this.lifetime = new AbortController();
    try {
      if (this.persistent) await this.ensureReady(signal);
      else await this.withLink(signal, () => this.check(signal));
    } catch (error) {
      if (this.persistent && !(isAgentError(error) && error.code === 'ABORTED')) this.startReconnecting();
      throw error;
    }
  }

  /** Runs `use` with a ready link; for TCP inside a fresh connection that is closed afterwards. */
  async withLink<T>(signal: AbortSignal | undefined, use: () => Promise<T>): Promise<T> {
    if (this.persistent) {
      try {
        await this.ensureReady(signal);
      } catch (error) {
        if (!(isAgentError(error) && error.code === 'ABORTED')) this.startReconnecting();
        throw error;
      }
      return use();
    }
    // One TCP transport and one link serve every caller: a background open and the recovery's
    // open can arrive together, and two exchanges on one link would steal each other's replies.
    return this.tcpTurn.run(async () => {
      try {
        await this.transport.open(signal);
        this.link.reset();
      } catch (error) {
        this.noteProblem(error);
        throw error;
      }
      try {
        return await use();
      } finally {
        await this.transport.close();
      }
    });
  }

  /** Records a successful exchange. */
  contact(): void {
    this.lastContact = this.ctx.clock.now();
    this.lastProblem = undefined;
    this.verified = true;
  }

  noteProblem(error: unknown): void {
    if (isAgentError(error) && error.code !== 'ABORTED') this.lastProblem = error;
  }

  async close(): Promise<void> {
    this.closedByUs = true;
    this.lifetime.abort();
    this.verified = false;
    await this.transport.close();
  }

  private ensureReady(signal?: AbortSignal): Promise<void> {
    if (this.transport.isOpen && this.verified) return Promise.resolve();
    this.opening ??= (async () => {
      try {
        await this.transport.open(signal);
        await this.check(signal);
      } catch (error) {
        this.noteProblem(error);
        throw error;
      } finally {
        this.opening = undefined;
      }
    })();
    return this.opening;
  }

  /** ENQ probe (twice: a pseudo-terminal peer may open just after us and miss the first). */
  private async check(signal?: AbortSignal): Promise<void> {
    if (!this.options.probe) {
      this.contact();
      return;
    }
    for (let i = 0; i < 2; i++) {
      const answer = await this.link.probe(signal);
      if (answer !== 'timeout') {
        this.contact();
        return;
      }
    }
    throw new AgentError('DEVICE_UNAVAILABLE', `${this.transport.description}: no answer to ENQ`, {
      notes: saltoMessages.silent(),
    });
  }

  private startReconnecting(): void {
    if (this.reconnecting || this.closedByUs || !this.persistent) return;
    this.reconnecting = true;
    void this.reconnectLoop().finally(() => {
      this.reconnecting = false;
    });
  }

  /** Tries again after a growing wait until the link is ready or the driver closes. */
  private async reconnectLoop(): Promise<void> {
    const { reconnectMinMs, reconnectMaxMs } = this.options;
    const signal = this.lifetime.signal;
    const delays = new Backoff({ minMs: reconnectMinMs, maxMs: reconnectMaxMs });
    if (this.ready) return;
    await pollUntil(
      async () => {
        if (this.ready) return true;
        try {
          await this.ensureReady(signal);
          this.ctx.log.info('encoder link is back', { transport: this.transport.description });
          return true;
        } catch (error) {
          this.ctx.log.debug('encoder still unavailable', { error, nextInMs: delays.peek() });
          return undefined;
        }
      },
      { clock: this.ctx.clock, signal, intervalMs: () => delays.next(), firstRun: 'after-interval' },
    ).catch(() => undefined);
  }
}
