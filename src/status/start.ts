import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { BackoffRange } from '../backoff.js';
import { systemClock } from '../clock.js';
import { AgentError } from '../errors.js';
import { isLoopback } from '../loopback.js';
import { type CodeOwner, localBaseUrl, parseListen, StaffSessions } from './callers/index.js';
import { buildStatusServer, type StatusServerOptions, serveOnStaffSocket } from './server.js';
import { listenForPage, type PageListener, type PassedSockets, type StaffSocket } from './sockets/index.js';

/**
 * Starting the status server on its sockets: the staff socket first (the command line's way in,
 * even while the page waits for its port), then the page's TCP port (`sockets/page-listener.ts`).
 * What is served is `server.ts`'s.
 */

export interface StartStatusServerOptions extends StatusServerOptions {
  /** `host:port`, e.g. `127.0.0.1:8720`; port 0 picks a free one. */
  listen: string;
  /** The staff socket's path (`staffSocketPath`); none when omitted. */
  staffSocket?: string;
  /** The sockets systemd passed (passed-sockets.ts), taken instead of binding. */
  passed?: PassedSockets;
  /** Waits between tries while the page's port is busy (page-listener.ts). */
  retry?: BackoffRange;
}

export interface RunningStatusServer {
  app: FastifyInstance;
  /**
   * The page's base URL, e.g. `http://127.0.0.1:8720/`: where it listens, or, while its port is
   * busy, where it will.
   */
  readonly url: string;
  readonly port: number;
  /** Resolves with `url` once the page listens (at once unless its port was busy). */
  readonly listening: Promise<string>;
  /** The staff socket, when one was asked for. */
  staffSocket?: StaffSocket;
  /**
   * A one-time login address for this PC's browser (`npm start` prints one), for `owner`'s
   * account only. `ttlMs` defaults to the sessions' code lifetime.
   */
  loginAddress(owner: CodeOwner, ttlMs?: number): string;
  /** Idempotent. */
  close(): Promise<void>;
}

/**
 * Builds and starts the status server: the staff socket first (the command line's way in, even
 * while the page waits for its port), then the page (page-listener.ts: the socket systemd passed,
 * or `listen`, tried again in the background while another program holds it). Rejects with
 * CONFIG_INVALID, before binding anything, when `listen` is not a loopback address and no token is
 * configured, and when an address can never be bound (not on this PC, not a socket of its kind).
 */
export async function startStatusServer(options: StartStatusServerOptions): Promise<RunningStatusServer> {
  let host: string;
  let port: number;
  try {
    ({ host, port } = parseListen(options.listen));
  } catch (error) {
    throw new AgentError('CONFIG_INVALID', `status.listen: ${(error as Error).message}`);
  }
  if (!isLoopback(host) && !options.accessToken && !options.metricsToken) {
    throw new AgentError(
      'CONFIG_INVALID',
      `status.listen ${options.listen} is not a loopback address: configure status.metricsTokenFile or status.accessTokenFile, or listen on 127.0.0.1`,
    );
  }
  const clock = options.clock ?? systemClock;
  const sessions = options.sessions ?? new StaffSessions({ clock });
  const app = buildStatusServer({ ...options, sessions });
  const tls = options.tls !== undefined;
  const scheme = tls ? 'https' : 'http';
  let staffSocket: StaffSocket | undefined;
  let page: PageListener | undefined;
  try {
    if (options.staffSocket) {
      staffSocket = await serveOnStaffSocket(app, {
        path: options.staffSocket,
        group: options.staffGroup ?? 'frontdesk-staff',
        log: options.log,
        ...(options.passed?.staff !== undefined ? { fd: options.passed.staff } : {}),
      });
    }
    page = await listenForPage({
      app,
      host,
      port,
      clock,
      log: options.log,
      ...(options.passed?.status !== undefined ? { fd: options.passed.status } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    });
  } catch (error) {
    page?.stop();
    await staffSocket?.close();
    await app.close();
    throw error;
  }
  const listener = page;
  const addressOf = (a: AddressInfo | undefined) =>
    a ?? ({ address: host, port, family: host.includes(':') ? 'IPv6' : 'IPv4' } as AddressInfo);
  const urlOf = (a: AddressInfo) =>
    `${scheme}://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}/`;
  const listening = listener.listening.then((address) => {
    options.log.info('status page listening', { url: urlOf(address) });
    return urlOf(address);
  });
  let closing: Promise<void> | undefined;
  return {
    app,
    get url() {
      return urlOf(addressOf(listener.address));
    },
    get port() {
      return addressOf(listener.address).port;
    },
    listening,
    ...(staffSocket ? { staffSocket } : {}),
    loginAddress: (owner, ttlMs) =>
      `${localBaseUrl(addressOf(listener.address), tls)}login?token=${sessions.mintCode(owner, ttlMs)}`,
    close: () => {
      closing ??= (async () => {
        listener.stop();
        await staffSocket?.close();
        await app.close();
      })();
      return closing;
    },
  };
}
