import { createServer, type Socket } from 'node:net';
import { AgentError } from '../../../src/errors.js';
import { LinkEvents } from '../../../src/transport/link-events.js';
import type { Transport } from '../../../src/transport/types.js';
import type { EncoderSimulator } from './encoder.js';

/**
 * A lock server on TCP for the simulator: every accepted connection is a session of `simulator`
 * (a real lock server takes one request per connection; so does our driver over TCP).
 */
export interface EncoderTcpServer {
  host: string;
  port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Stops listening and drops open connections. Idempotent. */
  close(): Promise<void>;
}

/** The accepted socket as a Transport, so the simulator's session code is the same everywhere. */
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

export async function startEncoderTcpServer(
  simulator: EncoderSimulator,
  options: { host?: string; port?: number } = {},
): Promise<EncoderTcpServer> {
  const host = options.host ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    simulator.attach(new AcceptedSocket(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let closing: Promise<void> | undefined;
  return {
    host,
    port,
    get connections() {
      return connections;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
