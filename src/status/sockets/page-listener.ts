import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyListenOptions } from 'fastify';
import { Backoff, type BackoffRange } from '../../backoff.js';
import type { Clock } from '../../clock.js';
import { AgentError } from '../../errors.js';
import { errorFields, type Logger } from '../../log.js';
import { runPeriodically } from '../../periodic.js';

/**
 * How the status page gets its TCP port (issue 40, finding M6: whoever held 127.0.0.1:8720 while
 * the agent restarted kept the whole agent down, `EADDRINUSE` → exit, every 10 s, and could serve
 * a look-alike login page):
 *
 * - under systemd the socket unit holds the port across restarts and passes it
 *   (passed-sockets.ts): the page takes that socket, and nobody else can have bound it meanwhile;
 * - without it the page binds `status.listen` itself; when another program holds the port, that
 *   is a warning, not an exit: the agent does its work (intake, devices, the staff socket) and the
 *   page tries again in the background (1 s doubling to 30 s), one warning line a minute, until
 *   the port is free.
 *
 * An address that can never work (not on this PC, a port that needs privileges) still stops the
 * start with CONFIG_INVALID: waiting would not fix it.
 */

export interface PageListenerOptions {
  app: FastifyInstance;
  host: string;
  port: number;
  /** The TCP socket systemd passed (passed-sockets.ts). */
  fd?: number;
  clock: Clock;
  log: Logger;
  /** Waits between tries while the port is busy. Default 1 s doubling to 30 s. */
  retry?: BackoffRange;
}

export interface PageListener {
  /** The page's address, once it listens. */
  readonly address: AddressInfo | undefined;
  /** Resolves when the page listens (at once when it could); never rejects. */
  readonly listening: Promise<AddressInfo>;
  /** Stops trying. Idempotent. */
  stop(): void;
}

const DEFAULT_RETRY: BackoffRange = { minMs: 1000, maxMs: 30_000 };

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/**
 * Starts listening as described above. Rejects with CONFIG_INVALID when the passed socket is not
 * a TCP socket or the address can never be bound; resolves otherwise, listening or trying.
 */
export async function listenForPage(options: PageListenerOptions): Promise<PageListener> {
  const { app, host, port, log } = options;
  const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  let address: AddressInfo | undefined;
  let heard: (value: AddressInfo) => void = () => undefined;
  const listening = new Promise<AddressInfo>((resolve) => {
    heard = resolve;
  });
  const stopping = new AbortController();
  const settle = () => {
    address = app.server.address() as AddressInfo;
    heard(address);
  };
  const result: PageListener = {
    get address() {
      return address;
    },
    listening,
    stop: () => stopping.abort(),
  };

  if (options.fd !== undefined) {
    // Node takes the descriptor and ignores the host; a host is named so that Fastify does not
    // try to bind `localhost`'s other addresses beside it.
    // Fastify hands its options to `net.Server.listen`, which takes an `fd` (its type omits it).
    const passed: FastifyListenOptions & { fd: number } = { fd: options.fd, host: '127.0.0.1' };
    await app.listen(passed);
    if (typeof app.server.address() !== 'object' || app.server.address() === null) {
      throw new AgentError(
        'CONFIG_INVALID',
        'The first socket systemd passed is not a TCP socket: frontdesk-agent.socket must list 127.0.0.1:8720 first, then the staff socket',
      );
    }
    settle();
    const held = address as AddressInfo;
    if (held.port !== port || (held.address !== host && port !== 0))
      log.warn(
        'systemd holds another address for the status page than status.listen: the socket unit decides',
        {
          held: `${held.address}:${held.port}`,
          configured: at,
        },
      );
    return result;
  }

  try {
    await app.listen({ host, port });
    settle();
    return result;
  } catch (error) {
    if (errnoOf(error) !== 'EADDRINUSE') {
      throw new AgentError('CONFIG_INVALID', `Cannot listen on ${at}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  const busy = () =>
    log.repeated(
      'the status page cannot listen: another program holds its port; the agent works on and tries again',
      at,
      { listen: at },
    );
  busy();
  const backoff = new Backoff(options.retry ?? DEFAULT_RETRY);
  void runPeriodically(
    async () => {
      try {
        await app.listen({ host, port });
      } catch (error) {
        if (errnoOf(error) === 'EADDRINUSE') {
          busy();
          return;
        }
        throw error;
      }
      settle();
      stopping.abort();
    },
    {
      clock: options.clock,
      signal: stopping.signal,
      intervalMs: () => backoff.next(),
      firstRun: 'after-interval',
      onError: (error) =>
        log.repeated('the status page cannot listen', at, { listen: at, ...errorFields(error) }),
    },
  );
  return result;
}
