import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';
import type { ClientRequest, IncomingMessage } from 'node:http';

/**
 * A probe loaded into the daemon under test (`node --import` this file; never part of the agent)
 * when `FRONTDESK_TEST_HTTP_TRACE` names a file. It appends one JSON line per event, stamped with
 * the daemon's own clock, so "nothing is sent during Retry-After" is judged in the order the
 * daemon itself did things — not by when requests happened to reach the platform on a loaded
 * machine:
 * - `send`: a Connector API request starts (`http.client.request.start`);
 * - `limited`: a Connector API answer was 429, with its `Request-Id` and `Retry-After`, stamped
 *   when the answer's last byte came in (the daemon cannot have known of it before);
 * - `noted`: the daemon's own log line for that exchange (`connector exchange … status=429`)
 *   was written — the agent logs it right after it blocked its budget, so by then it knew.
 * Every line carries the daemon's pid: a restarted daemon cannot know what its predecessor was
 * told.
 */

const path = process.env.FRONTDESK_TEST_HTTP_TRACE;
const CONNECTOR = '/api/connector/v1/';

export interface TraceLine {
  pid: number;
  /** Epoch ms, the daemon's clock. */
  t: number;
  kind: 'send' | 'limited' | 'noted';
  operation?: string;
  requestId?: string;
  retryAfterSeconds?: number;
}

function write(line: Omit<TraceLine, 'pid' | 't'>): void {
  if (!path) return;
  appendFileSync(path, `${JSON.stringify({ pid: process.pid, t: Date.now(), ...line })}\n`);
}

if (path) {
  subscribe('http.client.request.start', (message) => {
    const request = (message as { request: ClientRequest }).request;
    if (!request.path.includes(CONNECTOR)) return;
    write({ kind: 'send', operation: request.path.split(CONNECTOR)[1] ?? request.path });
  });
  subscribe('http.client.response.finish', (message) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    if (!request.path.includes(CONNECTOR) || response.statusCode !== 429) return;
    const line = {
      kind: 'limited' as const,
      operation: request.path.split(CONNECTOR)[1] ?? request.path,
      requestId: String(response.headers['request-id'] ?? ''),
      retryAfterSeconds: Number(response.headers['retry-after']),
    };
    if (response.complete) write(line);
    else response.once('end', () => write(line));
  });
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
      for (const m of text.matchAll(/connector exchange\b[^\n]*\bstatus=429\b[^\n]*\brequestId=([\w-]+)/g)) {
        write({ kind: 'noted', requestId: m[1] as string });
      }
      return original(chunk, ...rest);
    }) as typeof stream.write;
  }
}
