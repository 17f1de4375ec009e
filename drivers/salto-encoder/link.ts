import type { Clock } from '../../src/clock.js';
import type { ExchangePhase } from '../../src/drivers-api/key-jobs.js';
import { AgentError, isAgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { Transport } from '../../src/transport/types.js';
import { saltoMessages } from './messages.js';
import { ACK, ENQ, encodeFrame, FrameDecoder, frameSummary, NAK, type WireEvent } from './protocol.js';

/**
 * One request/reply exchange at a time over a byte transport:
 *
 *   → frame            ← ACK (accepted) | NAK (resend, after an ENQ/ACK "ready?" check)
 *   ← reply frame      → ACK (good LRC) | NAK (bad LRC: the peer resends)
 *
 * Errors say how far the exchange got in `details.phase` (`exchangePhase`):
 * - `send`: the peer never got the request, so nothing happened on the device
 *   (DEVICE_UNAVAILABLE: link gone before the frame went out; DEVICE_ERROR: NAK after every
 *   retry; ABORTED);
 * - `reply`: the frame went out and what should follow was lost, late or garbled, so the device
 *   may have acted (DEVICE_TIMEOUT: no ACK, or no reply after the ACK; DEVICE_UNAVAILABLE: the
 *   link vanished; STATE_UNKNOWN). A missing ACK counts here: the peer may have taken the frame
 *   and be acting while its ACK is late (a busy device) or lost on the line.
 */
export interface LinkOptions {
  clock: Clock;
  log: Logger;
  ackTimeoutMs: number;
  nakRetries: number;
}

interface Waiter {
  accept: (event: WireEvent) => boolean;
  resolve: (event: WireEvent) => void;
  reject: (error: Error) => void;
}

const MAX_QUEUED = 64;

function withPhase(error: unknown, phase: ExchangePhase): AgentError {
  const e = isAgentError(error)
    ? error
    : new AgentError('DEVICE_UNAVAILABLE', (error as Error).message ?? 'link error', { cause: error });
  if (e.details.phase === undefined) e.details.phase = phase;
  return e;
}

export class EncoderLink {
  private readonly decoder = new FrameDecoder();
  private queue: WireEvent[] = [];
  private waiter: Waiter | undefined;
  /** Set when the transport closed by itself since the last reset(); fails the next wait. */
  private lost: AgentError | undefined;
  /** True once the current request's frame was handed to the transport. */
  private frameWritten = false;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly transport: Transport,
    private readonly options: LinkOptions,
  ) {
    this.unsubscribe = [
      transport.onData((chunk) => this.receive(chunk)),
      transport.onClose((error) => {
        this.decoder.reset();
        this.queue = [];
        this.lost = new AgentError(
          'DEVICE_UNAVAILABLE',
          `${transport.description}: link lost (${error?.message ?? 'closed'})`,
          { cause: error, details: { linkLost: true } },
        );
        this.waiter?.reject(this.lost);
      }),
    ];
  }

  dispose(): void {
    for (const off of this.unsubscribe) off();
  }

  /** Forgets anything received so far (stale replies after a reconnect or a timeout). */
  reset(): void {
    if (this.queue.length > 0) this.options.log.debug('dropping stale input', { events: this.queue.length });
    this.queue = [];
    this.lost = undefined;
    this.decoder.reset();
  }

  /** ENQ → ACK ("ready"), NAK ("busy") or nothing within the ACK timeout. Rejects if the link fails. */
  async probe(signal?: AbortSignal): Promise<'ack' | 'nak' | 'timeout'> {
    this.reset();
    await this.send(Buffer.of(ENQ));
    const event = await this.next(
      (e) => e.type === 'ack' || e.type === 'nak',
      this.options.ackTimeoutMs,
      signal,
    );
    return event === 'timeout' ? 'timeout' : (event.type as 'ack' | 'nak');
  }

  /**
   * Sends `fields` as a frame and resolves with the reply's fields. `signal` is honoured until the
   * frame is written; after that the ACK and the reply are awaited (at most `ackTimeoutMs` and
   * `replyTimeoutMs`), because the device may be acting and only its reply tells what it did.
   */
  async request(fields: readonly string[], replyTimeoutMs: number, signal?: AbortSignal): Promise<string[]> {
    const frame = encodeFrame(fields);
    this.frameWritten = false;
    try {
      await this.sendUntilAccepted(frame, signal);
    } catch (error) {
      // The frame went out and the link vanished or the ACK never came: the device may have got
      // it and be acting.
      const lostAfterWrite =
        this.frameWritten &&
        isAgentError(error) &&
        (error.details.linkLost === true || error.details.ackMissing === true);
      throw withPhase(error, lostAfterWrite ? 'reply' : 'send');
    }
    try {
      return await this.awaitReply(replyTimeoutMs);
    } catch (error) {
      throw withPhase(error, 'reply');
    }
  }

  private async sendUntilAccepted(frame: Buffer, signal?: AbortSignal): Promise<void> {
    const { ackTimeoutMs, nakRetries } = this.options;
    this.reset();
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw new AgentError('ABORTED', 'cancelled before the request was sent');
      await this.send(frame);
      this.frameWritten = true;
      // Once the frame is out, the answer is awaited even when cancelled: the peer may act on it.
      const answer = await this.next((e) => e.type === 'ack' || e.type === 'nak', ackTimeoutMs);
      if (answer === 'timeout') {
        throw new AgentError(
          'DEVICE_TIMEOUT',
          `no ACK within ${ackTimeoutMs} ms after the request went out`,
          {
            notes: saltoMessages.noAnswer(),
            retryable: false,
            details: { ackMissing: true },
          },
        );
      }
      if (answer.type === 'ack') return;
      if (attempt >= nakRetries) {
        throw new AgentError('DEVICE_ERROR', `request refused (NAK) ${attempt + 1} times`, {
          notes: saltoMessages.keepsRefusing(),
        });
      }
      this.options.log.debug('NAK; checking the peer is ready before resending', { attempt: attempt + 1 });
      await this.awaitReady(signal);
    }
  }

  /** After a NAK: up to three ENQs, a short pause apart, until one is answered with ACK. */
  private async awaitReady(signal?: AbortSignal): Promise<void> {
    const pause = Math.min(200, this.options.ackTimeoutMs);
    for (let i = 0; i < 3; i++) {
      if ((await this.probe(signal)) === 'ack') return;
      await this.options.clock.sleep(pause, signal);
    }
  }

  private async awaitReply(replyTimeoutMs: number): Promise<string[]> {
    const { ackTimeoutMs, nakRetries } = this.options;
    for (let attempt = 0; attempt <= nakRetries; attempt++) {
      const timeout = attempt === 0 ? replyTimeoutMs : ackTimeoutMs;
      const event = await this.next((e) => e.type === 'frame', timeout);
      if (event === 'timeout') {
        throw new AgentError(
          'DEVICE_TIMEOUT',
          `no reply within ${timeout} ms after the request was accepted`,
          {
            retryable: false,
          },
        );
      }
      if (event.type !== 'frame') continue;
      if (event.lrcOk) {
        await this.send(Buffer.of(ACK)).catch(() => undefined);
        return event.fields;
      }
      this.options.log.debug('reply with a bad LRC; asking for it again', { frame: frameSummary(event.raw) });
      await this.send(Buffer.of(NAK));
    }
    throw new AgentError('STATE_UNKNOWN', 'the reply stayed garbled (bad LRC) after every retry', {
      retryable: false,
    });
  }

  private async send(bytes: Buffer): Promise<void> {
    this.options.log.debug('encoder ←', { frame: frameSummary(bytes) });
    await this.transport.write(bytes);
  }

  private receive(chunk: Buffer): void {
    this.options.log.debug('encoder →', { frame: frameSummary(chunk) });
    for (const event of this.decoder.push(chunk)) {
      if (event.type === 'garbage') {
        this.options.log.debug('ignoring bytes outside a frame', { bytes: event.bytes.length });
        continue;
      }
      const waiter = this.waiter;
      if (waiter?.accept(event)) waiter.resolve(event);
      else if (waiter) this.options.log.debug('ignoring unexpected input', { event: event.type });
      else if (this.queue.length < MAX_QUEUED) this.queue.push(event);
    }
  }

  /** The first queued or arriving event `accept` takes (others are dropped), or 'timeout'. */
  private next(
    accept: (event: WireEvent) => boolean,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<WireEvent | 'timeout'> {
    while (this.queue.length > 0) {
      const event = this.queue.shift() as WireEvent;
      if (accept(event)) return Promise.resolve(event);
    }
    if (this.lost) return Promise.reject(this.lost);
    if (signal?.aborted) return Promise.reject(new AgentError('ABORTED', 'cancelled'));
    return new Promise((resolve, reject) => {
      const timer = new AbortController();
      const onAbort = () => finish(() => reject(new AgentError('ABORTED', 'cancelled')));
      const finish = (settle: () => void) => {
        if (this.waiter !== waiter) return;
        this.waiter = undefined;
        timer.abort();
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      const waiter: Waiter = {
        accept,
        resolve: (event) => finish(() => resolve(event)),
        reject: (error) => finish(() => reject(error)),
      };
      this.waiter = waiter;
      signal?.addEventListener('abort', onAbort, { once: true });
      // A timer and the bytes it waits for can become due in the same turn of the event loop (a
      // process that did not get the CPU for a while): the loop runs timers before it reads
      // sockets, so the timeout is only declared after one more read of what has already arrived.
      this.options.clock.sleep(timeoutMs, timer.signal).then(
        () => setImmediate(() => finish(() => resolve('timeout'))),
        () => undefined,
      );
    });
  }
}
