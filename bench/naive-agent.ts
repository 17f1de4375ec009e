import http from 'node:http';

/**
 * The naive baseline the benchmark compares our agent with: what a first integration usually
 * looks like. One loop, strictly sequential:
 *
 *   poll `commands/getAllActive` → for each command of a configured device: update Received,
 *   execute (sleep for the command's scripted device time), update Processing, update Processed
 *   → fixed sleep → again.
 *
 * HTTP through `node:http` with one kept-alive connection. No WebSocket, no rate budget, no journal. A failed request (429 included, whose `Retry-After`
 * it ignores) is retried after a fixed pause, a few times; then the command is left for the next
 * poll. It performs the same simulated device timings as the `sim-*` drivers: the embedded
 * `{"sim": {"durationMs"}}` of the command's `FiscalMachineData` / `KeyCutterData`.
 */

export interface NaiveAgentOptions {
  /** Connector API base, e.g. `http://127.0.0.1:1234`. */
  url: string;
  clientToken: string;
  accessToken: string;
  /** Device ids this agent serves; other commands are skipped. */
  deviceIds: readonly string[];
  /** The fixed sleep after each pass over the active commands. */
  sleepMs: number;
  /** Pause before retrying a failed request. */
  retryMs: number;
  /** Attempts per request before the command is left for the next poll. */
  attempts: number;
  /** Device time per command when set, instead of the command's scripted one (real-driver worlds). */
  fixedJobMs?: number;
}

export interface NaiveStats {
  requests: number;
  failures: number;
  processed: number;
}

interface ActiveCommand {
  Id: string;
  Device?: { Id?: string };
  Data?: { FiscalMachineData?: unknown; KeyCutterData?: unknown };
}

/** The scripted device time of one command; 0 when it carries none. */
export function scriptedDurationMs(command: ActiveCommand): number {
  const embedded = command.Data?.FiscalMachineData ?? command.Data?.KeyCutterData;
  if (typeof embedded !== 'string') return 0;
  try {
    const value = JSON.parse(embedded) as { sim?: { durationMs?: unknown } };
    const ms = value.sim?.durationMs;
    return typeof ms === 'number' && ms >= 0 ? ms : 0;
  } catch {
    return 0;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs the naive loop until `signal` aborts; resolves with its counts. Never rejects: every
 * failure is counted and retried as described above.
 */
export async function runNaiveAgent(options: NaiveAgentOptions, signal: AbortSignal): Promise<NaiveStats> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const devices = new Set(options.deviceIds);
  const stats: NaiveStats = { requests: 0, failures: 0, processed: 0 };
  const tokens = { ClientToken: options.clientToken, AccessToken: options.accessToken, Client: 'naive 1.0' };

  async function call(operation: string, body: Record<string, unknown>): Promise<unknown> {
    for (let attempt = 1; attempt <= options.attempts && !signal.aborted; attempt++) {
      stats.requests++;
      try {
        const answer = await postJson(
          `${options.url}/api/connector/v1/${operation}`,
          { ...tokens, ...body },
          agent,
        );
        if (answer.status >= 200 && answer.status < 300) return JSON.parse(answer.text) as unknown;
      } catch {
        // network failure: retried like an error answer
      }
      stats.failures++;
      await sleep(options.retryMs, signal);
    }
    return undefined;
  }

  const update = async (id: string, state: string, notes?: string) =>
    (await call('commands/update', { CommandId: id, State: state, ...(notes ? { Notes: notes } : {}) })) !==
    undefined;

  while (!signal.aborted) {
    const active = (await call('commands/getAllActive', {})) as { Commands?: ActiveCommand[] } | undefined;
    for (const command of active?.Commands ?? []) {
      if (signal.aborted) break;
      if (!devices.has(command.Device?.Id ?? '')) continue;
      if (!(await update(command.Id, 'Received'))) continue;
      await sleep(options.fixedJobMs ?? scriptedDurationMs(command), signal);
      if (!(await update(command.Id, 'Processing'))) continue;
      if (await update(command.Id, 'Processed', 'Done')) stats.processed++;
    }
    await sleep(options.sleepMs, signal);
  }
  agent.destroy();
  return stats;
}

/**
 * One POST of `body` as JSON through `node:http` (a kept-alive connection): the answer's status and
 * text. Rejects on a network failure. Not `fetch`: on this machine Node's `fetch` costs about three
 * times the CPU of `node:http` per request (`bench/http-cost.ts`), which made the baseline's CPU per
 * receipt measure its HTTP client more than its work (10.9 ms against the 3 ms).
 */
function postJson(url: string, body: unknown, agent: http.Agent): Promise<{ status: number; text: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        answer.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(text);
  });
}
