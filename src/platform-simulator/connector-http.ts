import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Logger } from '../log.js';
import { OPERATIONS } from './connector-ops.js';
import type { SimulatorCore } from './core.js';
import { pathOf, readBody, sendJson, statusOf } from './http-util.js';
import type { FaultName, RequestLogEntry } from './metrics.js';

export const CONNECTOR_PREFIX = '/api/connector/v1/';

/** What a hotel network's login page answers to any request while it intercepts the traffic. */
/** What the gzip bomb inflates to. */
export const GZIP_BOMB_INFLATED_BYTES = 600 * 1024 * 1024;
let bombBytes: Buffer | undefined;

/**
 * About 600 KB of gzip that inflates to `GZIP_BOMB_INFLATED_BYTES` of zeros: 600 gzip members of
 * 1 MB each (a gzip stream may hold several members; every reader inflates them all). Made once,
 * without ever holding the inflated bytes.
 */
function gzipBomb(): Buffer {
  if (!bombBytes) {
    const member = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
    bombBytes = Buffer.concat(Array.from({ length: GZIP_BOMB_INFLATED_BYTES / (1024 * 1024) }, () => member));
  }
  return bombBytes;
}

const CAPTIVE_PORTAL_PAGE =
  '<!DOCTYPE html><html><head><title>Hotel Wi-Fi</title></head><body><h1>Welcome</h1>' +
  '<form method="post" action="/login"><label>Room number <input name="room"></label>' +
  '<button>Connect</button></form></body></html>\n';

export interface ConnectorHttpDeps {
  core: SimulatorCore;
  tokens: { clientToken: string; accessToken: string };
  log: Logger;
  /** Aborts pending latency sleeps when the simulator closes. */
  closing: AbortSignal;
  /** Requests left unanswered on purpose; destroyed on close. */
  hung: Set<ServerResponse>;
}

/**
 * One Connector API request, in the platform's order: exact path (404), POST (405), the
 * connection-level faults (reset, hang, a captive portal's HTML page) and added latency, JSON body (400), tokens (401), the
 * forced 429 burst and the sliding window per access token (429 + `Retry-After`), the 5xx fault,
 * `Client` (400), then the operation. Every answer carries `Request-Id`; every request lands in
 * the counters and the request log, with the time it arrived.
 */
export async function handleConnector(
  req: IncomingMessage,
  res: ServerResponse,
  deps: ConnectorHttpDeps,
): Promise<void> {
  const { core, log } = deps;
  const at = core.options.clock.now();
  const requestId = randomUUID();
  const path = pathOf(req);
  const name = path.slice(CONNECTOR_PREFIX.length);
  const operation = OPERATIONS.get(name);
  const record = (status: number, extra: Partial<RequestLogEntry> = {}) => {
    const entry: RequestLogEntry = { at, operation: operation ? name : path, status, requestId, ...extra };
    core.metrics.request(entry);
    log.debug('connector request', { operation: entry.operation, status, requestId, fault: extra.fault });
  };
  const fail = (
    status: number,
    message: string,
    extra: Partial<RequestLogEntry> = {},
    headers: Record<string, string> = {},
  ) => {
    sendJson(
      res,
      status,
      { Message: message, RequestId: requestId },
      { 'Request-Id': requestId, ...headers },
    );
    record(status, extra);
  };

  const body = await readBody(req);
  if (!operation) return fail(404, `Not found: ${path}`);
  if (req.method !== 'POST') return fail(405, 'Only POST is allowed', {}, { Allow: 'POST' });

  const fault = core.faults.decide(name);
  if (fault?.kind === 'reset') {
    core.metrics.fault('reset');
    record(0, { fault: 'reset' });
    req.socket.destroy();
    return;
  }
  if (fault?.kind === 'hang') {
    core.metrics.fault('hang');
    record(0, { fault: 'hang' });
    deps.hung.add(res);
    res.on('close', () => deps.hung.delete(res));
    return;
  }
  if (fault?.kind === 'captive-portal') {
    core.metrics.fault('captive-portal');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(CAPTIVE_PORTAL_PAGE);
    record(200, { fault: 'captive-portal' });
    return;
  }
  if (fault?.kind === 'gzip-bomb') {
    core.metrics.fault('gzip-bomb');
    const bomb = gzipBomb();
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      'Content-Length': String(bomb.length),
    });
    res.end(bomb);
    record(200, { fault: 'gzip-bomb' });
    return;
  }
  const delay = core.faults.latencyMs(name);
  if (delay > 0) {
    core.metrics.fault('latency');
    try {
      await core.options.clock.sleep(delay, deps.closing);
    } catch {
      req.socket.destroy();
      return;
    }
  }

  if (body === undefined) return fail(400, 'Invalid request: the body is too large or was cut off');
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    return fail(400, 'Invalid Content-Type: expected application/json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return fail(400, 'Invalid request: the body is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return fail(400, 'Invalid request: the body must be a JSON object');
  }
  const json = parsed as Record<string, unknown>;
  if (json.ClientToken !== deps.tokens.clientToken || json.AccessToken !== deps.tokens.accessToken) {
    return fail(401, 'Invalid ClientToken or AccessToken, or the integration is disabled.');
  }

  const burst = core.faults.takeRateLimitBurst();
  if (burst !== undefined) {
    core.metrics.fault('rate-limit-burst');
    return fail(
      429,
      'Too many requests.',
      { fault: 'rate-limit-burst', retryAfterSeconds: burst },
      { 'Retry-After': String(burst) },
    );
  }
  const window = core.limiter.take(deps.tokens.accessToken);
  if (!window.ok) {
    const retry = window.retryAfterSeconds;
    return fail(429, 'Too many requests.', { retryAfterSeconds: retry }, { 'Retry-After': String(retry) });
  }
  if (fault?.kind === 'server-error') {
    core.metrics.fault('server-error');
    return fail(fault.status, 'The server encountered an internal error.', {
      fault: 'server-error' as FaultName,
    });
  }
  if (typeof json.Client !== 'string' || json.Client.trim() === '')
    return fail(400, 'Invalid Client: required');

  let answer: Record<string, unknown>;
  try {
    answer = operation(core, json);
  } catch (e) {
    const status = statusOf(e);
    if (status === 500)
      log.error('simulator operation failed', { operation: name, error: (e as Error).message });
    return fail(status, status === 500 ? 'The server encountered an internal error.' : (e as Error).message);
  }
  sendJson(res, 200, answer, { 'Request-Id': requestId });
  record(200);
}
