import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import type { Logger } from '../log.js';
import { errorFields, silentLogger } from '../log.js';
import { Mutex } from '../mutex.js';

/**
 * The sd_notify protocol (sd_notify(3)): newline-separated `KEY=value` assignments in one
 * datagram to the AF_UNIX socket named by `$NOTIFY_SOCKET`.
 *
 * - A filesystem path (`/run/systemd/notify`, the case for every systemd since v2xx) is sent to
 *   in-process through `unix-dgram`, so the datagram carries the agent's own PID and
 *   `NotifyAccess=main` accepts it.
 * - An abstract name (`@…`): unix-dgram 2.0.7 cannot address those (its binding copies the path
 *   with strncpy, which stops at the leading NUL, and passes the full sockaddr length, which names
 *   a different abstract socket; bnoordhuis/node-unix-dgram#36 was never merged) and Node has no
 *   other AF_UNIX datagram API. Messages then go through `systemd-notify --no-block`, a child
 *   process: systemd accepts them only with `NotifyAccess=all` (or when the agent may claim its
 *   PID for the child, i.e. has CAP_SYS_ADMIN). The shipped unit uses a path socket.
 *
 * Every method is fire-and-forget and never throws; failures are logged (the first one at warn,
 * repeats at debug). With no socket the notifier is a no-op (`enabled` is false).
 */
export interface Notifier {
  readonly enabled: boolean;
  /** `READY=1` (and `STATUS=` when given): start-up finished. */
  ready(status?: string): void;
  /** `STATUS=…`: one line shown by `systemctl status`. */
  status(text: string): void;
  /** `WATCHDOG=1`: the keep-alive ping. */
  watchdog(): void;
  /** `STOPPING=1` (and `STATUS=`): shutdown started. */
  stopping(status?: string): void;
  /** Any assignments, in order. Resolves when handed to the socket (or failed, logged). */
  send(fields: ReadonlyArray<readonly [string, string]>): Promise<void>;
  /** Releases the socket. Idempotent; later calls are no-ops. */
  close(): void;
}

/** How a datagram reaches the socket; injectable for tests. */
export interface NotifyTransport {
  send(message: Buffer): Promise<void>;
  close(): void;
}

export interface NotifierOptions {
  log?: Logger;
  /** Replaces the transport chosen from the address. */
  transport?: NotifyTransport;
  /** Path of `systemd-notify` for abstract sockets; found in /usr/bin or /bin by default. */
  systemdNotify?: string;
}

/** `KEY=value` lines; a value's line breaks become spaces (a newline would start a new field). */
export function formatNotifyMessage(fields: ReadonlyArray<readonly [string, string]>): string {
  return fields.map(([key, value]) => `${key}=${value.replace(/[\r\n]+/g, ' ')}`).join('\n');
}

interface UnixDgramSocket {
  on(event: 'error', listener: (error: Error) => void): unknown;
  send(buf: Buffer, offset: number, length: number, path: string, callback: (error?: Error) => void): void;
  close(): void;
}
interface UnixDgramModule {
  createSocket(type: 'unix_dgram'): UnixDgramSocket;
}

/** Datagrams to a filesystem socket through unix-dgram (the native module loads on first use). */
export function unixDgramTransport(path: string): NotifyTransport {
  let socket: UnixDgramSocket | undefined;
  return {
    send(message) {
      return new Promise((resolve, reject) => {
        try {
          if (!socket) {
            const unix = createRequire(import.meta.url)('unix-dgram') as UnixDgramModule;
            socket = unix.createSocket('unix_dgram');
            socket.on('error', () => {
              // errors are reported through the send callback
            });
          }
          socket.send(message, 0, message.length, path, (error) => (error ? reject(error) : resolve()));
        } catch (error) {
          reject(error);
        }
      });
    },
    close() {
      try {
        socket?.close();
      } catch {
        // already closed
      }
      socket = undefined;
    },
  };
}

function findSystemdNotify(): string | undefined {
  for (const candidate of ['/usr/bin/systemd-notify', '/bin/systemd-notify']) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

/** Datagrams to an abstract socket (`@name`) through `systemd-notify --no-block` (see above). */
export function systemdNotifyTransport(address: string, executable?: string): NotifyTransport {
  return {
    send(message) {
      const binary = executable ?? findSystemdNotify();
      if (!binary)
        return Promise.reject(new Error('systemd-notify not found (needed for an abstract NOTIFY_SOCKET)'));
      const args = ['--no-block', ...message.toString('utf8').split('\n')];
      return new Promise((resolve, reject) => {
        const child = spawn(binary, args, {
          env: { NOTIFY_SOCKET: address },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
        });
        child.on('error', reject);
        child.on('close', (code) =>
          code === 0 ? resolve() : reject(new Error(`systemd-notify exited with ${code}: ${stderr.trim()}`)),
        );
      });
    },
    close() {},
  };
}

/**
 * Builds a notifier for `socketPath` (the value of `$NOTIFY_SOCKET`, passed in by `main.ts`).
 * Messages are sent in the order of the calls.
 */
export function createNotifier(socketPath: string | undefined, options: NotifierOptions = {}): Notifier {
  const log = options.log ?? silentLogger;
  const address = socketPath?.trim();
  if (!address && !options.transport) return disabledNotifier;
  if (address && !options.transport && !address.startsWith('/') && !address.startsWith('@')) {
    log.warn('NOTIFY_SOCKET is neither an absolute path nor an abstract name; not notifying systemd', {
      address,
    });
    return disabledNotifier;
  }
  const transport =
    options.transport ??
    (address?.startsWith('@')
      ? systemdNotifyTransport(address, options.systemdNotify)
      : unixDgramTransport(address as string));
  const turns = new Mutex();
  let failures = 0;
  let closed = false;

  const send = (fields: ReadonlyArray<readonly [string, string]>): Promise<void> => {
    if (closed) return Promise.resolve();
    const message = Buffer.from(formatNotifyMessage(fields), 'utf8');
    return turns.run(() =>
      transport.send(message).then(
        () => {
          failures = 0;
        },
        (error: unknown) => {
          failures++;
          const fieldsLogged = {
            ...errorFields(error),
            keys: fields.map(([k]) => k),
          };
          if (failures === 1) log.warn('sd_notify failed', fieldsLogged);
          else log.debug('sd_notify failed again', fieldsLogged);
        },
      ),
    );
  };
  const withStatus = (first: readonly [string, string], status?: string) =>
    status === undefined ? [first] : [first, ['STATUS', status] as const];

  return {
    enabled: true,
    ready: (status) => void send(withStatus(['READY', '1'], status)),
    status: (text) => void send([['STATUS', text]]),
    watchdog: () => void send([['WATCHDOG', '1']]),
    stopping: (status) => void send(withStatus(['STOPPING', '1'], status)),
    send,
    close() {
      if (closed) return;
      closed = true;
      void turns.run(() => transport.close());
    },
  };
}

const disabledNotifier: Notifier = {
  enabled: false,
  ready() {},
  status() {},
  watchdog() {},
  stopping() {},
  send: () => Promise.resolve(),
  close() {},
};
