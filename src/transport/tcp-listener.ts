import { createServer, isIP, type Server, type Socket } from 'node:net';
import { AgentError } from '../errors.js';
import { Listeners } from '../listeners.js';
import { errorFields, type Logger } from '../log.js';
import { LinkEvents } from './link-events.js';
import type { Transport } from './types.js';

/**
 * A TCP port a device connects to, for protocols where the device is the client: a FIAS lock
 * server opens the connection to the PMS side, which "always acts as the server" (Oracle, IFC8
 * FIAS Interface Specification 2.20.23, §7 "TCP/IP", p.90).
 *
 * - `listen()` binds to the configured address only (a loopback address unless configured
 *   otherwise) and stays bound until `close()`. It rejects DEVICE_UNAVAILABLE (retryable) when
 *   the port is taken by another program — which may go away — and CONFIG_INVALID when it can
 *   never work: the address is not on this machine, or the port needs privileges the agent has not.
 * - A connection from an address not in `allow` is closed at once, logged (`Logger.repeated`:
 *   one line per minute per address, however fast it retries), and reported to `onRefused`; an allowed one becomes a `Transport` handed to `onPeer` (already open; its
 *   `onClose` fires when the peer hangs up or the connection breaks).
 * - TCP keep-alive probes run on accepted connections, so a peer that vanished without closing
 *   (power cut, cable pulled) is noticed by the kernel even when the protocol is silent.
 */
export interface TcpListenerOptions {
  host: string;
  port: number;
  /** The peer addresses allowed to connect, as IP literals (IPv4-mapped IPv6 counts as IPv4). */
  allow: readonly string[];
  log: Logger;
  /** Idle time before the first keep-alive probe; 0 turns keep-alive off. Default 30 s. */
  keepAliveMs?: number;
}

/** A connection from an allowed peer. */
export interface AcceptedPeer {
  transport: Transport;
  address: string;
  port: number;
}

const DEFAULT_KEEPALIVE_MS = 30_000;

/** `::ffff:10.0.0.5` → `10.0.0.5`; IPv6 in lower case. */
export function normalizeAddress(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  return mapped ? (mapped[1] as string) : a;
}

/** An accepted socket as a Transport (the connection exists already: `open()` only checks it). */
class AcceptedSocket extends LinkEvents implements Transport {
  readonly kind = 'tcp' as const;
  readonly description: string;
  private closedByUs = false;

  constructor(
    private readonly socket: Socket,
    log: Logger,
  ) {
    super();
    this.description = `tcp peer ${normalizeAddress(socket.remoteAddress ?? '?')}:${socket.remotePort ?? '?'}`;
    let lastError: Error | undefined;
    socket.on('data', (chunk: Buffer) => this.data.emit(chunk));
    socket.on('error', (error) => {
      lastError = error;
      log.debug('accepted connection error', { peer: this.description, ...errorFields(error) });
    });
    socket.on('close', () => {
      if (this.closedByUs) return;
      this.closed.emit(lastError ?? new Error(`${this.description}: the peer closed the connection`));
    });
  }

  get isOpen(): boolean {
    return !this.socket.destroyed && this.socket.readyState === 'open';
  }

  async open(): Promise<void> {
    if (!this.isOpen) throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: closed`);
  }

  async write(data: Uint8Array): Promise<void> {
    if (!this.isOpen) throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: closed`);
    await new Promise<void>((resolve, reject) =>
      this.socket.write(data, (error) =>
        error
          ? reject(
              new AgentError('DEVICE_UNAVAILABLE', `${this.description}: write failed`, { cause: error }),
            )
          : resolve(),
      ),
    );
  }

  async close(): Promise<void> {
    this.closedByUs = true;
    if (this.socket.destroyed) return;
    await new Promise<void>((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.destroy();
    });
  }
}

export class TcpListener {
  private server: Server | undefined;
  private binding: Promise<void> | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly allowed: ReadonlySet<string>;
  private readonly peers = new Listeners<[AcceptedPeer]>();
  private readonly refusals = new Listeners<[string]>();
  private boundPort: number | undefined;

  constructor(private readonly options: TcpListenerOptions) {
    this.allowed = new Set(options.allow.map(normalizeAddress));
  }

  /** "tcp 127.0.0.1:5010", for logs and the status page. */
  get description(): string {
    return `tcp ${this.options.host}:${this.boundPort ?? this.options.port}`;
  }

  get listening(): boolean {
    return this.server?.listening === true;
  }

  /** The port bound (differs from the configured one only for port 0), once listening. */
  get port(): number | undefined {
    return this.boundPort;
  }

  onPeer(listener: (peer: AcceptedPeer) => void): () => void {
    return this.peers.add(listener);
  }

  onRefused(listener: (address: string) => void): () => void {
    return this.refusals.add(listener);
  }

  /** Binds once; concurrent calls share the attempt; a failed attempt is forgotten. */
  listen(): Promise<void> {
    if (this.listening) return Promise.resolve();
    this.binding ??= this.bind().finally(() => {
      this.binding = undefined;
    });
    return this.binding;
  }

  /** Stops listening and drops every accepted connection. Idempotent. */
  async close(): Promise<void> {
    await this.binding?.catch(() => undefined);
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private bind(): Promise<void> {
    const { host, port, log } = this.options;
    const server = createServer({ noDelay: true }, (socket) => this.accept(socket));
    return new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        server.close();
        reject(bindError(error, host, port));
      };
      server.once('error', onError);
      server.listen({ host, port, exclusive: true }, () => {
        server.off('error', onError);
        server.on('error', (error) =>
          log.warn('listening socket error', { at: this.description, ...errorFields(error) }),
        );
        const address = server.address();
        this.boundPort = typeof address === 'object' && address ? address.port : port;
        this.server = server;
        log.info('listening', { at: this.description });
        resolve();
      });
    });
  }

  private accept(socket: Socket): void {
    const { log } = this.options;
    const address = normalizeAddress(socket.remoteAddress ?? '');
    if (!this.allowed.has(address)) {
      socket.on('error', () => undefined);
      socket.destroy();
      // A peer may retry hundreds of times a second: one line per minute per address.
      log.repeated('refused a connection from an address that is not allowed', address, {
        from: address,
        at: this.description,
      });
      this.refusals.emit(address);
      return;
    }
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    const keepAlive = this.options.keepAliveMs ?? DEFAULT_KEEPALIVE_MS;
    if (keepAlive > 0) socket.setKeepAlive(true, keepAlive);
    this.peers.emit({ transport: new AcceptedSocket(socket, log), address, port: socket.remotePort ?? 0 });
  }
}

function bindError(error: NodeJS.ErrnoException, host: string, port: number): AgentError {
  const at = `${host}:${port}`;
  const details = { errno: error.code, listen: at };
  switch (error.code) {
    case 'EADDRINUSE':
      return new AgentError('DEVICE_UNAVAILABLE', `cannot listen on ${at}: another program uses the port`, {
        cause: error,
        details,
      });
    case 'EACCES':
    case 'EPERM': // a bind the unit's SocketBindDeny=/SocketBindAllow= refuses
      return new AgentError(
        'CONFIG_INVALID',
        `cannot listen on ${at}: not allowed (a port below 1024, or one the service unit does not allow)`,
        {
          cause: error,
          details,
        },
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new AgentError('CONFIG_INVALID', `cannot listen on ${at}: the address is not on this PC`, {
        cause: error,
        details,
      });
    default:
      return new AgentError('DEVICE_UNAVAILABLE', `cannot listen on ${at} (${error.code ?? error.message})`, {
        cause: error,
        details,
      });
  }
}

/** True when `text` is an IP literal (what `allow` must hold). */
export function isIpLiteral(text: string): boolean {
  return isIP(normalizeAddress(text)) !== 0;
}
