import { type Clock, systemClock } from '../../../src/clock.js';
import { Listeners } from '../../../src/listeners.js';
import type { Logger } from '../../../src/log.js';
import { silentLogger } from '../../../src/log.js';
import type { MemoryHub } from '../../../src/transport/testing/memory.js';
import type { Transport } from '../../../src/transport/types.js';
import { type DeviceFault, ScriptedDevice } from '../../simulator-kit/tcp.js';
import { type CardRequest, parseCardRequest } from '../commands.js';
import { ACK, ETX, encodeMessage, FrameDecoder, LRC_SKIP, lrc, NAK, STX } from '../protocol.js';

/**
 * The device end of the protocol: an encoder (or a lock server with one) that speaks over any
 * byte Transport — a memory endpoint, one side of a socat pseudo-terminal pair, a TCP connection.
 * It ACKs good frames, NAKs frames with a bad LRC, answers ENQ, validates CN/CC requests against
 * the encoders and rooms it knows, records every card it writes, and resends its reply when the
 * host NAKs it.
 *
 * Scripted behaviours (one per request, `enqueue`d, then `defaultBehaviour`):
 * - `normal`        ACK, write the card, reply `|CN1|encoder|serial|`
 * - `nak-then-ack`  NAK the first transmission, serve the resend normally
 * - `busy`          ACK, reply OV            - `offline`  ACK, reply NC
 * - `no-card`       ACK, wait `noCardMs`, reply ED (the encoder gave up waiting for a card)
 * - `bad-lrc`       write the card, send the reply with a wrong LRC (correct on resend)
 * - `split`         write the card, send the reply a few bytes at a time
 * - `garbage`       write the card, send line noise before the reply's STX
 * - `silent`        ACK and never reply (for unplug tests: pull the cable in `onRequest`)
 * - `{reply: 'EP'}` ACK, reply with that error code (and `text`, for EG)
 *
 * and the simulator kit's fault switches (`drivers/simulator-kit/tcp.ts`), `busy` being OV above:
 * - `slow`              ACK, write the card, reply after `slowMs`
 * - `drop-after-effect` ACK, write the card, close the link without replying
 * - `lost-answer`       ACK, write the card, never reply
 * - `reboot`            no ACK, nothing written: the encoder restarts (`onReboot`: its TCP server
 *                       drops every connection and is away for `rebootMs`; elsewhere the link closes)
 */
export type EncoderBehaviour =
  | 'normal'
  | 'nak-then-ack'
  | 'offline'
  | 'no-card'
  | 'bad-lrc'
  | 'split'
  | 'garbage'
  | 'silent'
  | DeviceFault
  | { reply: string; text?: string };

export interface EncodedCard extends CardRequest {
  serial: string;
  /** Clock time the card was written. */
  at: number;
}

export interface ReceivedRequest {
  fields: string[];
  /** 1-based count of frames received by this simulator. */
  index: number;
  behaviour: EncoderBehaviour;
}

export interface EncoderSimulatorOptions {
  clock?: Clock;
  log?: Logger;
  /** Encoders the lock software knows; requests for others get NC. Default: any. */
  encoderIds?: string[];
  /** Rooms the lock software knows; cards for others get TD. Default: any. */
  rooms?: string[];
  /** Time to write one card. Default 0. */
  writeMs?: number;
  /** How long `no-card` waits before ED. Default 20. */
  noCardMs?: number;
  /** Pause between the pieces of a `split` reply. Default 2. */
  splitDelayMs?: number;
  /** Reply check byte: the real LRC, or 0x0D ("not computed"), which hosts must accept. */
  replyLrc?: 'real' | 'skip';
  /** How long `slow` waits before replying. Default 200. */
  slowMs?: number;
  /** How long a `reboot` keeps the encoder away. Default 500. */
  rebootMs?: number;
}

const GARBAGE = Buffer.from([0x00, 0xff, 0x7e, 0x41, 0x20, 0x0a]);
const MAX_RESENDS = 3;

export class EncoderSimulator extends ScriptedDevice<EncoderBehaviour> {
  readonly cards: EncodedCard[] = [];
  readonly requests: ReceivedRequest[] = [];
  /**
   * How the encoder restarts on `reboot` (its TCP server drops every connection and is away for
   * `rebootMs`); without one, the link the request came over closes.
   */
  onReboot: ((awayMs: number) => Promise<void>) | undefined;
  /** A listener's error reaches the caller, as a test's failed expectation must. */
  private readonly requestListeners = new Listeners<[ReceivedRequest]>((error) => {
    throw error;
  });
  readonly clock: Clock;
  readonly log: Logger;

  constructor(readonly options: EncoderSimulatorOptions = {}) {
    super('normal');
    this.clock = options.clock ?? systemClock;
    this.log = (options.log ?? silentLogger).child({ simulator: 'salto-encoder' });
  }

  /** Called for every accepted request before it is processed (e.g. to unplug mid-job). */
  onRequest(listener: (request: ReceivedRequest) => void): () => void {
    return this.requestListeners.add(listener);
  }

  /** Speaks over `transport` (already open) until it closes; returns the detach function. */
  attach(transport: Transport): () => void {
    return new Session(this, transport).detach;
  }

  /** Listens as a named memory endpoint; returns the function that unplugs it. */
  serve(hub: MemoryHub, name: string): () => void {
    return hub.listen(name, (device) => {
      this.attach(device);
    });
  }

  /** @internal */
  nextBehaviour(): EncoderBehaviour {
    return this.script.next();
  }

  /** @internal puts a behaviour back at the front (the resend after a NAK). */
  pushFront(behaviour: EncoderBehaviour): void {
    this.script.pushFront(behaviour);
  }

  /** @internal */
  received(request: ReceivedRequest): void {
    this.requests.push(request);
    this.requestListeners.emit(request);
  }

  /** @internal the reply to a request the script lets through: validation, then the card. */
  async serveCard(fields: string[]): Promise<string[]> {
    const request = parseCardRequest(fields);
    if (!request) return ['ES', fields[1] ?? ''];
    const { encoderIds, rooms } = this.options;
    if (encoderIds && !encoderIds.includes(request.encoderId)) return ['NC', request.encoderId];
    if (request.rooms.length === 0 || (rooms && request.rooms.some((r) => !rooms.includes(r)))) {
      return ['TD', request.encoderId];
    }
    if (this.options.writeMs) await this.clock.sleep(this.options.writeMs);
    const serial = (0xc0de0000 + this.cards.length + 1).toString(16).toUpperCase();
    this.cards.push({ ...request, serial, at: this.clock.now() });
    const echo = [fields[0] ?? '', request.encoderId];
    return request.serialReturn === 'none' ? echo : [...echo, serial];
  }
}

/** One connection's protocol state. */
class Session {
  private readonly decoder = new FrameDecoder();
  private working = false;
  private pendingReply: Buffer | undefined;
  private resends = 0;
  private gone = false;
  readonly detach: () => void;

  constructor(
    private readonly sim: EncoderSimulator,
    private readonly transport: Transport,
  ) {
    const offData = transport.onData((chunk) => this.receive(chunk));
    // A closed link ends the session; a re-opened transport needs a new attach().
    const offClose = transport.onClose(() => this.detach());
    this.detach = () => {
      this.gone = true;
      offData();
      offClose();
    };
  }

  private receive(chunk: Buffer): void {
    for (const event of this.decoder.push(chunk)) {
      if (event.type === 'enq') this.send(Buffer.of(this.working ? NAK : ACK));
      else if (event.type === 'ack') this.pendingReply = undefined;
      else if (event.type === 'nak') this.resendReply();
      else if (event.type === 'frame') {
        if (!event.lrcOk || this.working) this.send(Buffer.of(NAK));
        else void this.handle(event.fields);
      }
    }
  }

  private async handle(fields: string[]): Promise<void> {
    const behaviour = this.sim.nextBehaviour();
    const index = this.sim.requests.length + 1;
    if (behaviour === 'nak-then-ack') {
      this.sim.received({ fields, index, behaviour });
      this.sim.pushFront('normal');
      this.send(Buffer.of(NAK));
      return;
    }
    if (behaviour === 'reboot') {
      this.sim.received({ fields, index, behaviour });
      const awayMs = this.sim.options.rebootMs ?? 500;
      await (this.sim.onReboot?.(awayMs) ?? this.transport.close());
      return;
    }
    this.working = true;
    this.send(Buffer.of(ACK));
    this.sim.received({ fields, index, behaviour });
    try {
      const reply = await this.replyFor(behaviour, fields);
      if (behaviour === 'drop-after-effect') await this.transport.close();
      if (reply === undefined || this.gone || behaviour === 'lost-answer') return;
      if (behaviour === 'slow') await this.sim.clock.sleep(this.sim.options.slowMs ?? 200);
      const good = frame(reply, this.sim.options.replyLrc === 'skip');
      this.pendingReply = good;
      this.resends = 0;
      if (behaviour === 'bad-lrc') {
        const bad = Buffer.from(good);
        bad[bad.length - 1] = ((bad[bad.length - 1] as number) ^ 0x5a) & 0xff;
        await this.write(bad);
      } else if (behaviour === 'split') {
        for (let i = 0; i < good.length; i += 3) {
          await this.write(good.subarray(i, i + 3));
          await this.sim.clock.sleep(this.sim.options.splitDelayMs ?? 2);
        }
      } else if (behaviour === 'garbage') {
        await this.write(Buffer.concat([GARBAGE, good]));
      } else {
        await this.write(good);
      }
    } finally {
      this.working = false;
    }
  }

  private async replyFor(behaviour: EncoderBehaviour, fields: string[]): Promise<string[] | undefined> {
    const encoder = fields[1] ?? '';
    if (typeof behaviour === 'object') {
      return behaviour.text === undefined
        ? [behaviour.reply, encoder]
        : [behaviour.reply, encoder, behaviour.text];
    }
    switch (behaviour) {
      case 'busy':
        return ['OV', encoder];
      case 'offline':
        return ['NC', encoder];
      case 'no-card':
        await this.sim.clock.sleep(this.sim.options.noCardMs ?? 20);
        return ['ED', encoder];
      case 'silent':
        return undefined;
      default:
        return this.sim.serveCard(fields);
    }
  }

  private resendReply(): void {
    if (!this.pendingReply || this.resends >= MAX_RESENDS) return;
    this.resends++;
    this.send(this.pendingReply);
  }

  private send(bytes: Buffer): void {
    void this.write(bytes);
  }

  private async write(bytes: Uint8Array): Promise<void> {
    if (this.gone) return;
    try {
      await this.transport.write(bytes);
    } catch (error) {
      this.sim.log.debug('simulator write failed (link gone)', { error });
    }
  }
}

function frame(fields: string[], skipLrc: boolean): Buffer {
  const message = encodeMessage(fields);
  return Buffer.concat([Buffer.of(STX), message, Buffer.of(ETX, skipLrc ? LRC_SKIP : lrc(message))]);
}
