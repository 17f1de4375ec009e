import { connect, type Socket } from 'node:net';
import { type Clock, systemClock } from '../../../src/clock.js';
import { Listeners } from '../../../src/listeners.js';
import { type Logger, silentLogger } from '../../../src/log.js';
import { type DeviceFault, ScriptedDevice } from '../../simulator-kit/tcp.js';
import { encodeRecord, type FiasRecord, fieldOf, RecordDecoder, record } from '../records.js';
import { stamp } from '../time.js';
import { type EncodedKey, readKeyRequest } from './keys.js';

/**
 * A FIAS lock server (the "vendor" side of Oracle's IFC8 FIAS specification 2.20.23) for tests
 * and `npm start`: it connects to the agent, describes its records, answers key requests and
 * records every card it writes. Written from the specification and checked against open-source
 * lock-side implementations (`test/drivers/fias-lock/simulator.test.ts` cites them), never
 * against the agent's driver:
 *
 * - It is the TCP client and keeps trying to connect, every `retryMs`, while the agent is away
 *   (§8 p.93: "the external system should regularly try to reconnect"); a dropped link is
 *   connected again the same way.
 * - Opening (`opening`): `wait-for-ls` — wait for the PMS's LS, then LD, the LRs, LA (p.91–92;
 *   `pms_server.cpp` waits for LS too), speaking first with LS after `startAfterMs` of silence
 *   (p.91); `ls-first` — LS at once (a Hotek bridge's lock server); `ld-first` — LD/LR/LA at once,
 *   ignoring LS (qbollen/PMSIface `FrmMain.cs` `Fidelio_Key_Send`; CloudInn/fiastestclient
 *   `src/fias.cpp` sends LD on connect).
 * - Every LS received makes it describe itself again (p.17, p.27). It answers an LA with LA only
 *   when it did not itself just send LS or LA (FAQ p.102), answers LE with LE and closes (p.28).
 * - Key requests: KR per the KR table (`keys.ts`); unknown encoder → `ASBY` ("encoder busy or
 *   not found", as a Hotek bridge answers), unknown room → `ASNG|CTINVALID ROOM` (p.14), and
 *   scripted behaviours per request (`enqueue`, then `defaultBehaviour`):
 *   - `ok`                 write the card, answer `KA|ASOK|CTKey made|…`
 *   - `late`               write the card, answer after `lateMs`
 *   - `silent`             never answer, write nothing (qbollen's bridge logs an invalid KR and says nothing)
 *   - `write-silent`       write the card, never answer
 *   - `drop`               drop the connection on receipt, write nothing
 *   - `drop-after-write`   write the card, drop the connection without answering
 *   - `{answer: 'DN', text}` answer that status (no card)
 *
 *   and the simulator kit's fault switches (`drivers/simulator-kit/tcp.ts`): `slow` (= `late`),
 *   `lost-answer` (= `write-silent`), `drop-after-effect` (= `drop-after-write`), `busy` (`ASBY`,
 *   no card), `reboot` (the lock server restarts: no card, no answer, the connection dropped and
 *   no reconnection for `rebootMs`).
 */
export type LockBehaviour =
  | 'ok'
  | 'late'
  | 'silent'
  | 'write-silent'
  | 'drop'
  | 'drop-after-write'
  | DeviceFault
  | { answer: string; text?: string };

/** The older names of the kit's faults, still read (the fault campaign scripts them). */
const SAME_AS: Readonly<Partial<Record<string, DeviceFault>>> = {
  late: 'slow',
  'write-silent': 'lost-answer',
  'drop-after-write': 'drop-after-effect',
};

export type Opening = 'wait-for-ls' | 'ls-first' | 'ld-first';

export interface ReceivedKeyRequest {
  record: FiasRecord;
  /** 1-based count of key requests received. */
  index: number;
  behaviour: LockBehaviour;
}

export interface FiasLockServerOptions {
  host: string;
  port: number;
  /** The local address the connection comes from (tests: 127.0.0.2 to be refused). */
  localAddress?: string;
  clock?: Clock;
  log?: Logger;
  timezone?: string;
  opening?: Opening;
  startAfterMs?: number;
  /** The LR records it sends, record id → field ids. Default: the spec's worked key example plus SI, KO, K#. */
  linkRecords?: Readonly<Record<string, readonly string[]>>;
  version?: string;
  /** RT of its LD (asks for an LC). */
  requestType?: number;
  /** Encoders it knows (KC); others are answered BY. Default: any. */
  encoders?: readonly string[];
  /** Rooms it knows (RN and SI); others are answered NG. Default: any. */
  rooms?: readonly string[];
  /** Reconnect interval. Default 200. */
  retryMs?: number;
  /** How long `slow` (`late`) waits before answering. Default 500. */
  lateMs?: number;
  /** How long a `reboot` keeps the lock server away. Default 500. */
  rebootMs?: number;
}

export const DEFAULT_LINK_RECORDS: Readonly<Record<string, readonly string[]>> = {
  KR: ['WS', 'KC', 'RN', 'KT', 'K#', 'G#', 'GN', 'GA', 'GD', 'DT', 'SI', 'KO', 'DA', 'TI'],
  KD: ['WS', 'KC', 'RN', 'G#', 'DA', 'TI'],
  KA: ['AS', 'CT', 'KC', 'WS', 'G#', 'DA', 'TI'],
};

export class FiasLockServerSimulator extends ScriptedDevice<LockBehaviour> {
  readonly cards: EncodedKey[] = [];
  readonly requests: ReceivedKeyRequest[] = [];
  /** Every record received from the agent, in order. */
  readonly received: FiasRecord[] = [];
  /** Connections made so far. */
  connections = 0;
  /** No connection before this clock time (a reboot). */
  private awayUntil = 0;
  private readonly requestListeners = new Listeners<[ReceivedKeyRequest]>((error) => {
    throw error;
  });
  private readonly aliveListeners = new Listeners<[]>();
  private socket: Socket | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private lifetime = new AbortController();
  private linkAlive = false;
  private expectingLa = false;
  private endWaiter: (() => void) | undefined;
  private readonly clock: Clock;
  private readonly log: Logger;

  constructor(private readonly options: FiasLockServerOptions) {
    super('ok');
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? silentLogger;
  }

  get alive(): boolean {
    return this.linkAlive;
  }

  get connected(): boolean {
    return this.socket !== undefined && !this.socket.destroyed;
  }

  /** Called synchronously when a key request arrives, before it is answered. */
  onRequest(listener: (request: ReceivedKeyRequest) => void): () => void {
    return this.requestListeners.add(listener);
  }

  onAlive(listener: () => void): () => void {
    return this.aliveListeners.add(listener);
  }

  /** Starts connecting (and reconnecting). Idempotent. */
  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.lifetime.signal.aborted) this.lifetime = new AbortController();
    this.loop = this.connectLoop();
  }

  /** Resolves once the link is Alive, or after `timeoutMs` (false). */
  async whenAlive(timeoutMs = 5000): Promise<boolean> {
    if (this.linkAlive) return true;
    const timer = new AbortController();
    return new Promise<boolean>((resolve) => {
      const off = this.onAlive(() => {
        off();
        timer.abort();
        resolve(true);
      });
      systemClock.sleep(timeoutMs, timer.signal).then(
        () => {
          off();
          resolve(this.linkAlive);
        },
        () => undefined,
      );
    });
  }

  /**
   * The lock server's alive check: LS on a live link, answered by the PMS with LA (p.91).
   * Resolves true when an LA came back within `timeoutMs`.
   */
  async aliveCheck(timeoutMs = 2000): Promise<boolean> {
    if (!this.linkAlive) return false;
    const before = this.received.length;
    this.sendLinkStart();
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.received.slice(before).some((r) => r.type === 'LA')) return true;
      await systemClock.sleep(5);
    }
    return false;
  }

  /** Drops the connection abruptly (a pulled cable); it reconnects while started. */
  dropLink(): void {
    this.socket?.destroy();
  }

  /**
   * Goes away as a lock server that shuts down does: LE, at most `waitMs` for the agent's LE,
   * close; no reconnecting until `start()`.
   */
  async stop(waitMs = 2000): Promise<void> {
    this.running = false;
    this.lifetime.abort();
    const socket = this.socket;
    if (socket && !socket.destroyed) {
      const answered = new Promise<void>((resolve) => {
        this.endWaiter = resolve;
      });
      this.send(record('LE', this.stamp()));
      const timer = new AbortController();
      await Promise.race([answered, systemClock.sleep(waitMs, timer.signal).catch(() => undefined)]);
      timer.abort();
      await closeSocket(socket);
    }
    await this.loop;
    this.loop = undefined;
  }

  async close(): Promise<void> {
    this.running = false;
    this.lifetime.abort();
    if (this.socket) await closeSocket(this.socket);
    await this.loop;
  }

  private stamp(): { DA: string; TI: string } {
    return stamp(this.clock.now(), this.options.timezone ?? 'Europe/Rome');
  }

  private async connectLoop(): Promise<void> {
    const signal = this.lifetime.signal;
    while (this.running) {
      const away = this.awayUntil - systemClock.now();
      if (away > 0) {
        try {
          await systemClock.sleep(away, signal);
        } catch {
          return;
        }
      }
      const socket = await this.connectOnce().catch(() => undefined);
      if (socket && !this.running) {
        socket.destroy();
        return;
      }
      if (socket) {
        await this.session(socket);
        if (!this.running) return;
      }
      try {
        await systemClock.sleep(this.options.retryMs ?? 200, signal);
      } catch {
        return;
      }
    }
  }

  private connectOnce(): Promise<Socket> {
    const { host, port, localAddress } = this.options;
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, ...(localAddress ? { localAddress } : {}) });
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }

  /** One connection, until it closes. */
  private session(socket: Socket): Promise<void> {
    this.connections++;
    this.socket = socket;
    this.linkAlive = false;
    this.expectingLa = false;
    socket.setNoDelay(true);
    const decoder = new RecordDecoder();
    const opening = this.options.opening ?? 'wait-for-ls';
    const quiet = new AbortController();
    let heardAnything = false;
    socket.on('data', (chunk: Buffer) => {
      for (const event of decoder.push(chunk)) {
        if (event.kind !== 'record') continue;
        heardAnything = true;
        this.received.push(event.record);
        this.handle(event.record, opening);
      }
    });
    if (opening === 'ls-first') this.sendLinkStart();
    else if (opening === 'ld-first') this.describe();
    else {
      // Listen first; speak with LS if the PMS says nothing (p.91).
      systemClock.sleep(this.options.startAfterMs ?? 3000, quiet.signal).then(
        () => {
          if (!heardAnything && !socket.destroyed) this.sendLinkStart();
        },
        () => undefined,
      );
    }
    return new Promise<void>((resolve) => {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        quiet.abort();
        if (this.socket === socket) this.socket = undefined;
        this.linkAlive = false;
        this.endWaiter?.();
        resolve();
      });
    });
  }

  private sendLinkStart(): void {
    this.expectingLa = true;
    this.send(record('LS', this.stamp()));
  }

  /** LD, one LR per record, LA (p.20–21). */
  private describe(): void {
    const ld: Record<string, string> = { ...this.stamp(), 'V#': this.options.version ?? '1.0', IF: 'DL' };
    if (this.options.requestType !== undefined) ld.RT = String(this.options.requestType);
    this.send(record('LD', ld));
    for (const [id, fields] of Object.entries(this.options.linkRecords ?? DEFAULT_LINK_RECORDS)) {
      this.send(record('LR', { RI: id, FL: fields.join('') }));
    }
    this.expectingLa = true;
    this.send(record('LA', this.stamp()));
  }

  private handle(r: FiasRecord, opening: Opening): void {
    switch (r.type) {
      case 'LS':
        if (opening !== 'ld-first' || this.linkAlive) this.describe();
        return;
      case 'LA':
        if (this.expectingLa) {
          this.expectingLa = false;
          if (!this.linkAlive) {
            this.linkAlive = true;
            this.aliveListeners.emit();
          }
        } else {
          this.send(record('LA', this.stamp()));
        }
        return;
      case 'LE':
        if (this.endWaiter && !this.running) {
          this.endWaiter();
          return;
        }
        this.send(record('LE', this.stamp()));
        this.linkAlive = false;
        this.socket?.end();
        return;
      case 'KR':
        this.keyRequest(r);
        return;
      default:
        return;
    }
  }

  private keyRequest(kr: FiasRecord): void {
    const behaviour = this.script.next();
    const request: ReceivedKeyRequest = { record: kr, index: this.requests.length + 1, behaviour };
    this.requests.push(request);
    this.requestListeners.emit(request);
    const socket = this.socket;
    const read = readKeyRequest(kr);
    const answer = (status: string, text: string) =>
      this.send(
        record('KA', {
          AS: status,
          CT: text,
          KC: fieldOf(kr, 'KC') ?? '',
          WS: fieldOf(kr, 'WS') ?? '',
          ...(fieldOf(kr, 'G#') ? { 'G#': fieldOf(kr, 'G#') as string } : {}),
          ...this.stamp(),
        }),
        socket,
      );
    if (!read.ok) {
      answer(read.status, read.text);
      return;
    }
    const key = read.key;
    const { encoders, rooms } = this.options;
    if (encoders && !encoders.includes(key.encoder)) {
      answer('BY', 'ENCODER NOT FOUND');
      return;
    }
    if (rooms && [key.room, ...key.suite].some((room) => !rooms.includes(room))) {
      answer('NG', 'INVALID ROOM');
      return;
    }
    const write = () => {
      this.cards.push({ ...key, at: this.clock.now() });
      this.log.info('simulated lock server wrote a key', {
        room: key.room,
        encoder: key.encoder,
        type: key.keyType,
      });
    };
    if (typeof behaviour === 'object') {
      answer(behaviour.answer, behaviour.text ?? '');
      return;
    }
    switch (SAME_AS[behaviour] ?? behaviour) {
      case 'ok':
        write();
        answer('OK', 'Key made');
        return;
      case 'slow':
        write();
        systemClock.sleep(this.options.lateMs ?? 500).then(() => answer('OK', 'Key made'));
        return;
      case 'silent':
        return;
      case 'lost-answer':
        write();
        return;
      case 'drop':
        socket?.destroy();
        return;
      case 'drop-after-effect':
        write();
        socket?.destroy();
        return;
      case 'busy':
        answer('BY', 'Encoder busy');
        return;
      case 'reboot':
        this.awayUntil = systemClock.now() + (this.options.rebootMs ?? 500);
        socket?.destroy();
        return;
    }
  }

  private send(r: FiasRecord, socket: Socket | undefined = this.socket): void {
    if (!socket || socket.destroyed) return;
    socket.write(encodeRecord(r));
  }
}

function closeSocket(socket: Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    socket.once('close', () => resolve());
    socket.destroy();
  });
}
