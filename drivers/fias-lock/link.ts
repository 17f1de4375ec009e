import type { Clock } from '../../src/clock.js';
import { AgentError, isAgentError } from '../../src/errors.js';
import { Listeners } from '../../src/listeners.js';
import type { Logger } from '../../src/log.js';
import { runPeriodically } from '../../src/periodic.js';
import type { Transport } from '../../src/transport/types.js';
import { DescriptionIntake, type LinkDescription } from './description.js';
import { encodeRecord, type FiasRecord, fieldOf, RecordDecoder, record, recordSummary } from './records.js';
import { stamp } from './time.js';

/**
 * The PMS side of one FIAS link over one accepted connection (IFC8 FIAS specification 2.20.23,
 * §6 "Communications and Link Control" p.17–22 and §8 "Usage of LS LD LA LE Records" p.91–100):
 *
 *   lock server connects → agent: LS                       (p.92: "upon TCP connect … LS")
 *   lock server: LD, LR…, LA  → agent: [LC,] LA            (link Alive, p.20–21, p.25, p.92)
 *   agent: KR  → lock server: KA                           (one outstanding request per WS+KC)
 *
 * - LS from the lock server: answered LA while Alive (its alive check, p.91), LS before (a link
 *   never started, p.27) — so a lock server that speaks first (a Hotek bridge) is served too.
 * - LD/LR describe what the lock server wants; the KR carries only the fields its `LR|RIKR` lists
 *   (p.11, FAQ p.101). LD/LR while Alive are a new configuration, in force from its LA (FAQ p.101).
 * - LA while Alive is never answered (p.91, note of Nov 2018). The agent's own alive check is an
 *   LA after `aliveCheckMs` of silence, which a lock server that did not itself just send LS or
 *   LA answers with LA (FAQ p.102); no record within `aliveTimeoutMs` means the link is lost.
 * - LE is answered LE and ends the link (p.28, p.94); the agent's own end sends LE and waits at
 *   most `linkEndWaitMs` for the answer (2 s on TCP, p.28). DR (resync) is answered DS, DE: a key
 *   interface has nothing to resend (p.28–29).
 * - Until the link is Alive only link records are read (p.27–28). A lock server that has not
 *   finished LD/LR/LA within `linkTimeoutMs` (§5 p.16: at least 30 s) is disconnected.
 *
 * Errors of `request()` say in `details.phase` (`exchangePhase`) how far it got: `send` (nothing reached the lock
 * server: the link was not Alive, or the write failed) or `reply` (the KR went out and its answer
 * was lost or late: the card may have been written — FIAS has no way to ask, §6 "Key Services").
 */

export type LinkState = 'starting' | 'alive' | 'ended';

export interface FiasLinkOptions {
  clock: Clock;
  log: Logger;
  timezone: string;
  hotelId: string;
  answerTimeoutMs: number;
  linkTimeoutMs: number;
  aliveCheckMs: number;
  aliveTimeoutMs: number;
  linkEndWaitMs: number;
}

/** Who a key answer (KA) belongs to: KA carries no request id, only WS and KC (p.64, p.67). */
export interface AnswerKey {
  workstation: string;
  encoder: string;
  /** `G#` of the request: a KA naming another reservation is not this request's. */
  reservation?: string;
}

interface Waiter extends AnswerKey {
  resolve(answer: FiasRecord): void;
  reject(error: AgentError): void;
}

export class FiasLink {
  private current: LinkState = 'starting';
  private readonly descriptions: DescriptionIntake;
  private readonly decoder = new RecordDecoder();
  private readonly waiters = new Map<string, Waiter>();
  private readonly lifetime = new AbortController();
  private readonly aliveListeners = new Listeners<[]>();
  private readonly endListeners = new Listeners<[string]>();
  /** Told whenever something `until` may wait for happens: a record, Alive, a request settled, the end. */
  private readonly changes = new Listeners<[]>();
  private recordsHeard = 0;
  private endAnswered: (() => void) | undefined;
  private heardAt: number;
  private endReason: string | undefined;

  constructor(
    private readonly transport: Transport,
    readonly peer: string,
    private readonly options: FiasLinkOptions,
  ) {
    this.heardAt = options.clock.now();
    this.descriptions = new DescriptionIntake({ ...options, peer, signal: this.lifetime.signal });
  }

  get state(): LinkState {
    return this.current;
  }

  /** The lock server's description in force (once Alive). */
  get description(): LinkDescription | undefined {
    return this.descriptions.inForce;
  }

  get lastHeard(): number {
    return this.heardAt;
  }

  /** Why the link ended, once it has. */
  get ended(): string | undefined {
    return this.endReason;
  }

  onAlive(listener: () => void): () => void {
    return this.aliveListeners.add(listener);
  }

  onEnd(listener: (reason: string) => void): () => void {
    return this.endListeners.add(listener);
  }

  /** Starts the link: LS at once, then the handshake timer and the alive checks. */
  start(): void {
    this.transport.onData((chunk) => this.receive(chunk));
    this.transport.onClose((error) =>
      this.finish(`the lock server closed the connection (${error?.message ?? 'closed'})`),
    );
    this.send('LS', {});
    void this.handshakeTimer();
    if (this.options.aliveCheckMs > 0) void this.aliveChecks();
  }

  /**
   * Sends a key request and resolves with its KA. The signal is honoured until the KR is written;
   * after that the answer is awaited (at most `timeoutMs`), because the lock server may be writing
   * the card and only its answer tells.
   */
  async request(
    kr: FiasRecord,
    key: AnswerKey,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<FiasRecord> {
    const id = `${key.workstation}|${key.encoder}`;
    if (this.current !== 'alive') {
      throw new AgentError('DEVICE_UNAVAILABLE', `FIAS link to ${this.peer} is not alive (${this.current})`, {
        details: { phase: 'send', nothingSent: true },
      });
    }
    if (signal?.aborted)
      throw new AgentError('ABORTED', 'cancelled before the key request', { details: { phase: 'send' } });
    if (this.waiters.has(id)) {
      throw new AgentError('DEVICE_BUSY', `a key request for ${id} is already waiting`, {
        details: { phase: 'send', nothingSent: true },
      });
    }
    const answer = new Promise<FiasRecord>((resolve, reject) => {
      this.waiters.set(id, { ...key, resolve, reject });
    });
    answer.catch(() => undefined);
    try {
      await this.write(kr);
    } catch (error) {
      this.waiters.delete(id);
      throw new AgentError('DEVICE_UNAVAILABLE', `the key request could not be sent to ${this.peer}`, {
        cause: error,
        details: { phase: 'send', nothingSent: true },
      });
    }
    const timer = new AbortController();
    const timeout = this.options.clock.sleep(timeoutMs, timer.signal).then(
      // A timer and the answer it waits for can become due in the same turn of the event loop (a
      // process that did not get the CPU for a while): timers run before sockets are read, so the
      // timeout is declared only after one more read of what has already arrived.
      () => new Promise<'timeout'>((resolve) => setImmediate(() => resolve('timeout'))),
      () => 'cancelled' as const,
    );
    try {
      const first = await Promise.race([answer, timeout]);
      if (first === 'timeout' || first === 'cancelled') {
        this.waiters.delete(id);
        throw new AgentError('DEVICE_TIMEOUT', `no key answer from ${this.peer} within ${timeoutMs} ms`, {
          retryable: false,
          details: { phase: 'reply' },
        });
      }
      return first;
    } catch (error) {
      if (isAgentError(error) && error.details.phase === undefined) error.details.phase = 'reply';
      throw error;
    } finally {
      timer.abort();
      this.changes.emit();
    }
  }

  /**
   * Whether the lock server still answers on this link — what keeps an established link when
   * another connection arrives from its address (issue 40 M1). Waits until the link is Alive and
   * no key request is outstanding (a KA is awaited then; an alive check in between could not be
   * told from it), then sends the agent's alive check, an LA, which a lock server that did not
   * itself just send LS or LA answers with LA (FAQ p.102): true once any record arrives within
   * `timeoutMs`; false when the link ends first, stays silent, or `signal` aborts.
   */
  async provesAlive(timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    const settled = await this.until(
      () => this.current === 'ended' || (this.current === 'alive' && this.waiters.size === 0),
      signal,
    );
    if (!settled || this.current !== 'alive') return false;
    const heard = this.recordsHeard;
    this.send('LA', {});
    return this.until(() => this.recordsHeard > heard && this.current === 'alive', signal, timeoutMs);
  }

  /** Ends the link as the spec says: LE, then at most `linkEndWaitMs` for the lock server's LE. */
  async end(reason = 'the agent ended the link'): Promise<void> {
    if (this.current === 'ended') return;
    const answered = new Promise<void>((resolve) => {
      this.endAnswered = resolve;
    });
    const sent = await this.write(record('LE', stamp(this.options.clock.now(), this.options.timezone))).then(
      () => true,
      () => false,
    );
    if (sent && this.options.linkEndWaitMs > 0) {
      const timer = new AbortController();
      await Promise.race([
        answered,
        this.options.clock.sleep(this.options.linkEndWaitMs, timer.signal).catch(() => undefined),
      ]);
      timer.abort();
    }
    this.finish(reason);
  }

  /** Drops the connection at once (a newer connection replaced it, the handshake never ended). */
  drop(reason: string): void {
    this.finish(reason);
  }

  /**
   * Ends the link at once: nothing more is read or sent (no request goes out once this ran), the
   * requests waiting fail as lost, and the connection closes once `before` (a last write) settled.
   */
  private finish(reason: string, before: Promise<unknown> = Promise.resolve()): void {
    if (this.current === 'ended') return;
    this.current = 'ended';
    this.endReason = reason;
    this.lifetime.abort();
    this.endAnswered?.();
    const lost = new AgentError('DEVICE_UNAVAILABLE', `FIAS link to ${this.peer} lost: ${reason}`, {
      details: { phase: 'reply', linkLost: true },
    });
    for (const waiter of this.waiters.values()) waiter.reject(lost);
    this.waiters.clear();
    void before.catch(() => undefined).then(() => this.transport.close().catch(() => undefined));
    this.options.log.info('FIAS link ended', { peer: this.peer, reason });
    this.endListeners.emit(reason);
    this.changes.emit();
  }

  private receive(chunk: Buffer): void {
    for (const event of this.decoder.push(chunk)) {
      // A record may end the link; what follows it is not read.
      if (this.state === 'ended') return;
      if (event.kind === 'garbage') {
        this.options.log.debug('FIAS: ignoring bytes outside a record', {
          bytes: event.bytes,
          reason: event.reason,
        });
        continue;
      }
      this.heardAt = this.options.clock.now();
      this.recordsHeard++;
      this.options.log.debug('FIAS →', { record: recordSummary(event.record) });
      this.handle(event.record);
      this.changes.emit();
    }
  }

  private handle(r: FiasRecord): void {
    switch (r.type) {
      case 'LS':
        // An alive check while Alive (p.91); a link start before (p.27).
        this.send(this.current === 'alive' ? 'LA' : 'LS', {});
        return;
      case 'LD':
      case 'LR':
        this.descriptions.take(r, this.current === 'alive');
        return;
      case 'LA':
        this.linkAlive();
        return;
      case 'LE': {
        if (this.endAnswered) {
          this.finish('the agent ended the link');
          return;
        }
        // Answered LE, then the connection closes (p.28, p.94).
        const answered = this.write(record('LE', stamp(this.options.clock.now(), this.options.timezone)));
        this.finish('the lock server ended the link (LE)', answered);
        return;
      }
      default:
        break;
    }
    if (this.current !== 'alive') {
      this.options.log.debug('FIAS: a record before the link is alive is ignored', { type: r.type });
      return;
    }
    if (r.type === 'DR') {
      this.send('DS', {});
      this.send('DE', {});
    } else if (r.type === 'KA') {
      this.answer(r);
    } else {
      this.options.log.debug('FIAS: record not used by a key interface', { type: r.type });
    }
  }

  private linkAlive(): void {
    if (this.current === 'alive') {
      // A new description sent while Alive is in force from its LA; the LA is not answered (p.91).
      if (this.descriptions.receiving) this.descriptions.close();
      return;
    }
    if (!this.descriptions.receiving) {
      this.options.log.warn(
        'FIAS: the lock server sent LA without describing its records (LD/LR); using the default key request fields',
        {
          peer: this.peer,
        },
      );
    }
    const description = this.descriptions.close();
    if (description.requestType !== undefined && description.requestType > 0) {
      const lc: Record<string, string> = { PH: this.options.hotelId };
      // RT bit 128 asks for the timeouts, "EFT-timeout;DLS-timeout" in seconds (p.21–22).
      if (description.requestType & 128) {
        const seconds = String(Math.ceil(this.options.answerTimeoutMs / 1000));
        lc.A0 = `${seconds};${seconds}`;
      }
      this.sendPlain(record('LC', lc));
    }
    this.send('LA', {});
    this.current = 'alive';
    this.options.log.info('FIAS link alive', {
      peer: this.peer,
      version: description.version,
      records: [...description.records.keys()].join(' '),
    });
    this.aliveListeners.emit();
  }

  private answer(ka: FiasRecord): void {
    const encoder = fieldOf(ka, 'KC');
    const workstation = fieldOf(ka, 'WS');
    const reservation = fieldOf(ka, 'G#');
    const candidates = [...this.waiters.entries()].filter(
      ([, w]) =>
        (encoder === undefined || w.encoder === encoder) &&
        (workstation === undefined || w.workstation === workstation) &&
        (reservation === undefined ||
          !reservation ||
          w.reservation === undefined ||
          w.reservation === reservation),
    );
    const match = candidates.length === 1 ? candidates[0] : undefined;
    if (!match) {
      this.options.log.warn('FIAS: a key answer no request waits for is ignored (late, or for another PMS)', {
        peer: this.peer,
        answer: recordSummary(ka),
        waiting: this.waiters.size,
      });
      return;
    }
    this.waiters.delete(match[0]);
    match[1].resolve(ka);
  }

  /**
   * Resolves true once `done()` holds (checked now and after every change), false when `timeoutMs`
   * passes first, `signal` aborts or the link ends without it.
   */
  private until(done: () => boolean, signal: AbortSignal, timeoutMs?: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = new AbortController();
      const settle = (value: boolean) => {
        off();
        timer.abort();
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const off = this.changes.add(() => {
        if (done()) settle(true);
        else if (this.current === 'ended') settle(false);
      });
      const onAbort = () => settle(false);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) settle(false);
      if (timeoutMs !== undefined) {
        this.options.clock.sleep(timeoutMs, timer.signal).then(
          () => settle(done()),
          () => undefined,
        );
      }
    });
  }

  /** Link records carry DA and TI (p.17). */
  private send(type: string, fields: Record<string, string>): void {
    this.sendPlain(record(type, { ...stamp(this.options.clock.now(), this.options.timezone), ...fields }));
  }

  private sendPlain(r: FiasRecord): void {
    void this.write(r).catch((error: unknown) => {
      this.options.log.debug('FIAS: could not send', { type: r.type, error: String(error) });
    });
  }

  private async write(r: FiasRecord): Promise<void> {
    this.options.log.debug('FIAS ←', { record: recordSummary(r) });
    await this.transport.write(encodeRecord(r));
  }

  private async handshakeTimer(): Promise<void> {
    try {
      await this.options.clock.sleep(this.options.linkTimeoutMs, this.lifetime.signal);
    } catch {
      return;
    }
    if (this.current === 'starting') {
      this.options.log.warn('FIAS: the lock server did not finish LD/LR/LA in time; disconnecting', {
        peer: this.peer,
        waitedMs: this.options.linkTimeoutMs,
      });
      this.finish(`no link description within ${this.options.linkTimeoutMs} ms`);
    }
  }

  /** The agent's alive check: LA after `aliveCheckMs` of silence, never while a key is awaited. */
  private async aliveChecks(): Promise<void> {
    const { clock, aliveCheckMs, aliveTimeoutMs } = this.options;
    await runPeriodically(
      async (signal) => {
        if (this.current !== 'alive' || this.waiters.size > 0) return;
        if (clock.now() - this.heardAt < aliveCheckMs) return;
        const askedAt = clock.now();
        this.send('LA', {});
        await clock.sleep(aliveTimeoutMs, signal);
        if (this.current === 'alive' && this.heardAt < askedAt && this.waiters.size === 0) {
          this.finish(`no answer to the link alive check within ${aliveTimeoutMs} ms`);
        }
      },
      {
        clock,
        signal: this.lifetime.signal,
        // Next check when the link will have been silent for `aliveCheckMs`.
        intervalMs: () => Math.max(1, aliveCheckMs - (clock.now() - this.heardAt)),
        firstRun: 'after-interval',
        onError: () => undefined,
      },
    );
  }
}
