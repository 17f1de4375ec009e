import { connect as netConnect, type Socket } from 'node:net';
import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { errorFields } from '../log.js';
import { DeviceLink } from './link-events.js';
import type { TcpSpec, Transport } from './types.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

export interface TcpTransportOptions {
  log?: Logger;
  /** Replaces `net.connect` (tests). */
  connect?: (options: { host: string; port: number }) => Socket;
}

/**
 * A TCP connection to a network device such as a lock server. Each `open()` makes a new
 * connection, so a driver that wants "one connection per request" opens and closes around each
 * request; `onData`/`onClose` listeners stay subscribed across connections.
 *
 * - `open()` rejects DEVICE_UNAVAILABLE when the connection is refused, unreachable or not
 *   established within `connectTimeoutMs`; ABORTED when the signal fires first.
 * - `onClose` fires when the peer hangs up or the connection breaks, never for `close()`.
 */
export class TcpTransport extends DeviceLink implements Transport {
  private socket: Socket | undefined;
  /** Sockets this transport closed on purpose: their 'close' is not reported. */
  private readonly closingSockets = new WeakSet<Socket>();
  private readonly connect: NonNullable<TcpTransportOptions['connect']>;

  constructor(
    private readonly spec: TcpSpec,
    options: TcpTransportOptions = {},
  ) {
    super('tcp', `tcp ${spec.host}:${spec.port}`, options.log);
    this.connect = options.connect ?? ((o) => netConnect(o));
  }

  get isOpen(): boolean {
    return this.socket !== undefined && !this.socket.destroyed && this.socket.readyState === 'open';
  }

  async open(signal?: AbortSignal): Promise<void> {
    if (this.isOpen) return;
    if (signal?.aborted) throw new AgentError('ABORTED', `${this.description}: open aborted`);
    const timeoutMs = this.spec.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const socket = this.connect({ host: this.spec.host, port: this.spec.port });
    await new Promise<void>((resolve, reject) => {
      const finish = (error?: AgentError) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        socket.off('connect', onConnect);
        socket.off('error', onError);
        if (error) {
          socket.destroy();
          reject(error);
        } else resolve();
      };
      const onConnect = () => finish();
      const onError = (e: NodeJS.ErrnoException) =>
        finish(
          new AgentError(
            'DEVICE_UNAVAILABLE',
            `${this.description}: cannot connect (${e.code ?? e.message})`,
            { cause: e, details: { errno: e.code } },
          ),
        );
      const onAbort = () => finish(new AgentError('ABORTED', `${this.description}: open aborted`));
      const timer = setTimeout(
        () =>
          finish(
            new AgentError('DEVICE_UNAVAILABLE', `${this.description}: no connection within ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
      socket.once('connect', onConnect);
      socket.once('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    socket.setNoDelay(true);
    this.socket = socket;
    let lastError: Error | undefined;
    socket.on('data', (chunk: Buffer) => this.data.emit(chunk));
    socket.on('error', (e) => {
      lastError = e;
      this.log.debug('tcp error', errorFields(e));
    });
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      if (this.closingSockets.has(socket)) return;
      this.closed.emit(lastError ?? new Error(`${this.description}: the peer closed the connection`));
    });
  }

  async write(data: Uint8Array): Promise<void> {
    const socket = this.socket;
    if (!socket || !this.isOpen) {
      throw new AgentError('DEVICE_UNAVAILABLE', `${this.description}: not connected`);
    }
    await new Promise<void>((resolve, reject) => {
      socket.write(data, (error) =>
        error
          ? reject(
              new AgentError('DEVICE_UNAVAILABLE', `${this.description}: write failed`, { cause: error }),
            )
          : resolve(),
      );
    });
  }

  async close(): Promise<void> {
    const socket = this.socket;
    if (!socket) return;
    this.closingSockets.add(socket);
    this.socket = undefined;
    if (socket.destroyed) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.destroy();
    });
  }
}
