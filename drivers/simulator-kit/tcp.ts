import { createServer, type Server, type Socket } from 'node:net';
import { type Clock, systemClock } from '../../src/clock.js';
import { AgentError } from '../../src/errors.js';
import { LinkEvents } from '../../src/transport/link-events.js';
import type { Transport } from '../../src/transport/types.js';

/**
 * The simulator kit's TCP part, for device simulators that the agent reaches over TCP (the key
 * encoder's lock server, PMS-protocol encoders on the network): a server whose accepted
 * connections are `Transport`s — so a simulator's session code is the same over TCP as over a
 * memory endpoint or a pseudo-terminal — and the fault switches every device simulator
 * understands, one per request, scripted in order (`RequestScript`).
 *
 * The fault switches, what each device does with them (its answers stay its own, per family):
 *
 * | fault               | the side effect (card, document) | the answer                            |
 * | ------------------- | -------------------------------- | ------------------------------------- |
 * | `slow`              | done                             | sent after the simulator's delay      |
 * | `drop-after-effect` | done                             | none: the connection is dropped       |
 * | `lost-answer`       | done                             | none: the connection stays open       |
 * | `busy`              | not done                         | the device's own "busy" answer        |
 * | `reboot`            | not done                         | none: every connection is dropped and |
 * |                     |                                  | the device is away for a while        |
 *
 * This file is self-contained: it depends only on the agent's clock, errors and `Transport`.
 */

/** One request's fault, as every device simulator understands it (table above). */
export type DeviceFault = 'slow' | 'drop-after-effect' | 'lost-answer' | 'busy' | 'reboot';

export const DEVICE_FAULTS: readonly DeviceFault[] = [
  'slow',
  'drop-after-effect',
  'lost-answer',
  'busy',
  'reboot',
];

/**
 * What a simulator does with each request, in order: behaviours `enqueue`d for the next
 * requests, then `defaultBehaviour`.
 */
export class RequestScript<B> {
  private readonly queue: B[] = [];

  constructor(public defaultBehaviour: B) {}

  enqueue(...behaviours: B[]): void {
    this.queue.push(...behaviours);
  }

  /** Puts a behaviour back in front (the resend after a NAK is served as the next request). */
  pushFront(behaviour: B): void {
    this.queue.unshift(behaviour);
  }

  /** The behaviour of the request that has just arrived. */
  next(): B {
    return this.queue.shift() ?? this.defaultBehaviour;
  }
}

/**
 * A simulated device that answers each request as its `RequestScript` says: a test sets the
 * `defaultBehaviour` or `enqueue`s behaviours for the next requests, the simulator takes each
 * request's from `script`.
 */
export abstract class ScriptedDevice<B> {
  protected readonly script: RequestScript<B>;

  protected constructor(defaultBehaviour: B) {
    this.script = new RequestScript(defaultBehaviour);
  }

  /** What a request does when nothing is enqueued. */
  get defaultBehaviour(): B {
    return this.script.defaultBehaviour;
  }

  set defaultBehaviour(behaviour: B) {
    this.script.defaultBehaviour = behaviour;
  }

  /** Scripts the next requests' behaviours, in order. */
  enqueue(...behaviours: B[]): this {
    this.script.enqueue(...behaviours);
    return this;
  }
}

/** An accepted socket as a Transport (already open: `open()` only checks it). */
class AcceptedSocket extends LinkEvents implements Transport {
  readonly kind = 'tcp' as const;
  readonly description: string;

  constructor(private readonly socket: Socket) {
    super();
    this.description = `tcp peer ${socket.remoteAddress}:${socket.remotePort}`;
    socket.on('data', (chunk: Buffer) => this.data.emit(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => this.closed.emit(new Error('peer closed')));
  }

  get isOpen(): boolean {
    return !this.socket.destroyed;
  }

  async open(): Promise<void> {
    if (this.socket.destroyed) throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: closed`);
  }

  async write(data: Uint8Array): Promise<void> {
    if (this.socket.destroyed) throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: closed`);
    await new Promise<void>((resolve, reject) =>
      this.socket.write(data, (error) => (error ? reject(error) : resolve())),
    );
  }

  async close(): Promise<void> {
    this.socket.destroy();
  }
}

export interface TcpSimulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port, read back from `port`. */
  port?: number;
  /** Each accepted connection, as a Transport, until it closes. */
  onConnection(connection: Transport): void;
  /** For `reboot`'s time away. Default: the system clock. */
  clock?: Clock;
}

export interface TcpSimulatorServer {
  readonly host: string;
  readonly port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  /** False while the device is rebooting (the port refuses connections). */
  readonly up: boolean;
  /**
   * The device restarts: every open connection is dropped at once and the port refuses
   * connections for `awayMs`, then it listens again on the same port. Resolves once it is back.
   */
  reboot(awayMs: number): Promise<void>;
  /** Stops listening and drops open connections. Idempotent. */
  close(): Promise<void>;
}

/** Starts a TCP server for a device simulator; resolves once it listens. */
export async function startTcpSimulator(options: TcpSimulatorOptions): Promise<TcpSimulatorServer> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? systemClock;
  const sockets = new Set<Socket>();
  let connections = 0;
  let closed = false;
  const accept = (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    options.onConnection(new AcceptedSocket(socket));
  };
  let server: Server | undefined = await listen(host, options.port ?? 0, accept);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = async () => {
    const current = server;
    server = undefined;
    for (const s of sockets) s.destroy();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    get connections() {
      return connections;
    },
    get up() {
      return server !== undefined;
    },
    async reboot(awayMs) {
      await stop();
      await clock.sleep(awayMs);
      if (!closed) server = await listen(host, port, accept);
    },
    close() {
      closed = true;
      closing ??= stop();
      return closing;
    },
  };
}

function listen(host: string, port: number, accept: (socket: Socket) => void): Promise<Server> {
  const server = createServer(accept);
  return new Promise<Server>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
