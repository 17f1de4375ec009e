import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { staffRequest } from '../../src/cli/staff-link.js';
import { EVENTUALLY_TIMEOUT_MS } from './eventually.js';
import { shebangLaunch } from './node-flags.js';

const root = join(import.meta.dirname, '..', '..');

/**
 * The real agent daemon as a child process (`node --import tsx app/main.ts run`, or the installed
 * bundle with the flags of its shebang), for end-to-end
 * tests: start it, read its log, find its status page, kill it with SIGKILL or stop it with
 * SIGTERM, start it again on the same journal.
 */
export interface DaemonHandle {
  readonly dir: string;
  readonly configPath: string;
  /** Every line it printed, across restarts. */
  readonly lines: string[];
  /** Calls `listener` with every line as it arrives (for tests that act on a log event); returns the unsubscribe. */
  onLine(listener: (line: string) => void): () => void;
  statusUrl(): string;
  /** The staff socket (`status.staffSocket`): the test process is its owner, so it is staff. */
  readonly staffSocket: string;
  /** One request through the staff socket, as `frontdesk-agent` commands send them. */
  staff(path: string, request?: { method?: 'GET' | 'POST'; json?: unknown }): Promise<StaffReply>;
  /** A one-time login address for a browser (`frontdesk-agent login`). */
  loginUrl(): Promise<string>;
  /** The page session's cookie (`name=value`), from a one-time login address. */
  loginCookie(): Promise<string>;
  start(): Promise<void>;
  /** kill -9: no chance to clean up. */
  kill(): Promise<void>;
  /** SIGTERM, then waits for exit; resolves to the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
  readonly running: boolean;
  /** Exit codes of earlier runs and the signals that ended them. */
  readonly exits: Array<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StaffReply {
  status: number;
  text: string;
  json<T = unknown>(): T;
}

export interface DaemonOptions {
  /**
   * The config document; `journal.path`, `status.listen` and `status.staffSocket` are filled in
   * when absent.
   */
  config: Record<string, unknown>;
  env?: Record<string, string>;
  /** Test probes loaded into the daemon before the agent (`node --import`), as file paths. */
  preload?: string[];
  /**
   * Run this bundled `main.js` (scripts/bundle.ts) as the installed launcher does — node with the
   * flags and environment of its shebang — instead of `app/main.ts` under tsx.
   */
  bundle?: string;
  /** With `bundle`: node flags instead of its shebang's (the bench's flag measurements). */
  nodeFlags?: string[];
  /**
   * Safety net for a start that never becomes ready (default: the generous `eventually` timeout);
   * readiness itself is the status page line, an event.
   */
  startTimeoutMs?: number;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `${prefix}-`));
}

export function createDaemon(options: DaemonOptions): DaemonHandle {
  const dir = tempDir('frontdesk-e2e');
  const staffSocket = join(dir, 'staff.sock');
  const config = {
    ...options.config,
    journal: (options.config.journal as object | undefined) ?? { path: join(dir, 'journal.db') },
    status: {
      staffSocket,
      ...((options.config.status as object | undefined) ?? { listen: '127.0.0.1:0' }),
    },
  };
  const staff: DaemonHandle['staff'] = async (path, request = {}) => {
    const answer = await staffRequest(staffSocket, 'frontdesk-staff', {
      method: request.method ?? 'GET',
      path,
      ...(request.json !== undefined ? { json: request.json } : {}),
      timeoutMs: 60_000,
      maxBytes: 16 * 1024 * 1024,
    });
    const text = answer.body.toString('utf8');
    return { status: answer.status, text, json: <T>() => JSON.parse(text) as T };
  };
  const loginUrl = async () => {
    const answer = await staff('/login-links', { method: 'POST' });
    if (answer.status !== 200) throw new Error(`no login address (${answer.status}): ${answer.text}`);
    return answer.json<{ url: string }>().url;
  };
  const configPath = join(dir, 'agent.yaml');
  writeFileSync(configPath, stringify(config));
  const lines: string[] = [];
  const lineListeners = new Set<(line: string) => void>();
  const exits: DaemonHandle['exits'] = [];
  let child: ChildProcess | undefined;
  let url = '';
  let exited: Promise<void> = Promise.resolve();

  const handle: DaemonHandle = {
    dir,
    configPath,
    lines,
    onLine(listener) {
      lineListeners.add(listener);
      return () => lineListeners.delete(listener);
    },
    exits,
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    statusUrl: () => url,
    staffSocket,
    staff,
    loginUrl,
    async loginCookie() {
      const answer = await fetch(await loginUrl(), { redirect: 'manual' });
      if (answer.status !== 303) throw new Error(`login refused (${answer.status})`);
      return String(answer.headers.get('set-cookie')).split(';')[0] as string;
    },
    async start() {
      url = '';
      const launch = options.bundle ? shebangLaunch(options.bundle) : undefined;
      const proc = spawn(
        process.execPath,
        [
          ...(launch ? (options.nodeFlags ?? launch.flags) : ['--import', 'tsx']),
          ...(options.preload ?? []).flatMap((file) => ['--import', pathToFileURL(file).href]),
          options.bundle ?? 'app/main.ts',
          'run',
          '--config',
          configPath,
        ],
        {
          cwd: root,
          env: { ...process.env, ...launch?.env, ...options.env, NOTIFY_SOCKET: '', JOURNAL_STREAM: '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child = proc;
      exited = new Promise((resolve) => {
        proc.on('exit', (code, signal) => {
          exits.push({ code, signal });
          resolve();
        });
      });
      const ready = new Promise<void>((resolve, reject) => {
        let buffer = '';
        const onChunk = (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          let nl = buffer.indexOf('\n');
          while (nl >= 0) {
            const text = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            lines.push(text);
            for (const listener of lineListeners) listener(text);
            const m = /status page at (http:\/\/[\d.:]+)/.exec(text);
            if (m?.[1] && !url) {
              url = m[1];
              resolve();
            }
            nl = buffer.indexOf('\n');
          }
        };
        proc.stdout?.on('data', onChunk);
        proc.stderr?.on('data', onChunk);
        proc.on('exit', (code) =>
          reject(new Error(`daemon exited (${code}) before it was ready:\n${lines.slice(-20).join('\n')}`)),
        );
      });
      const timeout = options.startTimeoutMs ?? EVENTUALLY_TIMEOUT_MS;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        ready,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`daemon not ready after ${timeout} ms:\n${lines.slice(-20).join('\n')}`)),
            timeout,
          );
        }),
      ]).finally(() => clearTimeout(timer));
    },
    async kill() {
      if (!handle.running) return;
      child?.kill('SIGKILL');
      await exited;
    },
    async stop(timeoutMs = 30_000) {
      if (!handle.running) return child?.exitCode ?? null;
      child?.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        exited,
        new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            child?.kill('SIGKILL');
            resolve();
          }, timeoutMs);
        }),
      ]).finally(() => clearTimeout(timer));
      await exited;
      return exits.at(-1)?.code ?? null;
    },
  };
  return handle;
}
