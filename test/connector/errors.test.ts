import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import {
  type ConnectorClientOptions,
  createConnectorClient,
  type RequestRecord,
} from '../../src/connector/index.js';
import { type AgentError, isAgentError } from '../../src/errors.js';
import { createMemoryLogger } from '../../src/log.js';
import { english } from '../../src/messages/render.js';
import { eventually } from '../helpers/eventually.js';
import { BASE_URL, type Responder, recordingFetch, reply, SAMPLE } from './fake-platform.js';

const fast = { retryDelay: { minMs: 1, maxMs: 2 } };

function clientWith(respond: Responder, extra: Partial<ConnectorClientOptions> = {}) {
  const recorder = recordingFetch(respond);
  const api = createConnectorClient({
    baseUrl: BASE_URL,
    ...SAMPLE,
    fetch: recorder.fetch,
    ...fast,
    ...extra,
  });
  return { api, seen: recorder.seen };
}

async function failure(work: () => Promise<unknown>): Promise<AgentError> {
  try {
    await work();
  } catch (error) {
    if (isAgentError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('HTTP status → AgentError', () => {
  const table: [number, string, boolean][] = [
    [400, 'PLATFORM_REJECTED', false],
    [401, 'PLATFORM_AUTH', false],
    [403, 'PLATFORM_FORBIDDEN', false],
    [404, 'PLATFORM_NOT_FOUND', false],
    [408, 'REQUEST_TOO_LARGE', true],
    [409, 'PLATFORM_CONFLICT', true],
    [413, 'REQUEST_TOO_LARGE', true],
    [418, 'PLATFORM_REJECTED', false],
    [429, 'RATE_LIMITED', true],
    [500, 'PLATFORM_ERROR', true],
    [502, 'PLATFORM_ERROR', true],
    [503, 'PLATFORM_ERROR', true],
  ];
  for (const [status, code, retried] of table) {
    it(`${status} → ${code}${retried ? ', retried' : ', not retried'}`, async () => {
      const { api, seen } = clientWith(
        () =>
          reply(status, { Message: `Platform says ${status}`, RequestId: 'body-id' }, { 'Retry-After': '0' }),
        { retries: 2 },
      );
      const error = await failure(() => api.devices());
      expect(error.code).toBe(code);
      expect(error.message).toContain(`Platform says ${status}`);
      expect(error.details).toMatchObject({
        status,
        operation: 'devices/getAll',
        requestId: `req-${status}`,
      });
      expect(seen).toHaveLength(retried ? 3 : 1);
    });
  }

  it('403 puts the platform message, meant for humans, into notes', async () => {
    const { api } = clientWith(() => reply(403, { Message: 'The bill is already closed.' }));
    const error = await failure(() => api.updateCommand({ CommandId: 'c1', State: 'Processed' }));
    expect(english(error.notes)).toBe('The platform refused it: The bill is already closed.');
  });

  it('takes the request id from the body when the header is missing', async () => {
    const { api } = clientWith(
      () =>
        new Response(JSON.stringify({ Message: 'Invalid CommandId', RequestId: 'r-77' }), { status: 400 }),
    );
    const error = await failure(() => api.updateCommand({ CommandId: 'c1', State: 'Processed' }));
    expect(error.details.requestId).toBe('r-77');
    expect(error.message).toContain('Invalid CommandId');
  });

  it('a non-JSON error body keeps the status and reason phrase', async () => {
    const { api } = clientWith(
      () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
      {
        retries: 0,
      },
    );
    const error = await failure(() => api.devices());
    expect(error).toMatchObject({ code: 'PLATFORM_ERROR', details: { status: 502 } });
    expect(error.message).toContain('Bad Gateway');
  });

  it('a 2xx body that is not JSON, or misses the envelope, is RESPONSE_INVALID: retried like a platform fault, never for a request that may have acted', async () => {
    const notJson = clientWith(() => new Response('OK', { status: 200, headers: { 'Request-Id': 'x1' } }), {
      retries: 0,
    });
    expect(await failure(() => notJson.api.devices())).toMatchObject({
      code: 'RESPONSE_INVALID',
      retryable: true,
      details: { requestId: 'x1', operation: 'devices/getAll' },
    });
    const noEnvelope = clientWith(() => reply(200, { Something: [] }), { retries: 2 });
    const error = await failure(() => noEnvelope.api.activeCommands());
    expect(error.code).toBe('RESPONSE_INVALID');
    expect(error.message).toContain('Commands');
    expect(noEnvelope.seen).toHaveLength(3);
    // A portal's page in answer to addKeyCutter: the platform may have created the command.
    const portal = clientWith(
      () => new Response('<html><body>Log in to the hotel Wi-Fi</body></html>', { status: 200 }),
      { retries: 2 },
    );
    const created = await failure(() =>
      portal.api.addKeyCutter({ KeyCutterId: 'k', ReservationId: 'r', KeyCount: 1 }),
    );
    expect(created.code).toBe('RESPONSE_INVALID');
    expect(portal.seen).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries platform faults and succeeds', async () => {
    const { api, seen } = clientWith((_r, i) =>
      i < 2 ? reply(503, { Message: 'busy' }) : reply(200, { Devices: [] }),
    );
    expect(await api.devices()).toEqual([]);
    expect(seen).toHaveLength(3);
  });

  it('gives up after `retries` retries with the last error', async () => {
    const { api, seen } = clientWith(() => reply(500, { Message: 'boom' }));
    expect((await failure(() => api.devices())).code).toBe('PLATFORM_ERROR');
    expect(seen).toHaveLength(5);
  });

  it('re-reads on 409 but leaves a conflicting update to the caller', async () => {
    const read = clientWith((_r, i) =>
      i === 0 ? reply(409, { Message: 'changed' }) : reply(200, { Commands: [] }),
    );
    expect(await read.api.activeCommands()).toEqual([]);
    expect(read.seen).toHaveLength(2);
    const write = clientWith(() => reply(409, { Message: 'changed' }));
    expect((await failure(() => write.api.updateCommand({ CommandId: 'c', State: 'Received' }))).code).toBe(
      'PLATFORM_CONFLICT',
    );
    expect(write.seen).toHaveLength(1);
  });

  it('never repeats addKeyCutter after an unclear failure, but does after a 429', async () => {
    const request = { KeyCutterId: 'k', ReservationId: 'r', KeyCount: 2 };
    const unclear = clientWith(() => reply(503, { Message: 'oops' }));
    expect((await failure(() => unclear.api.addKeyCutter(request))).code).toBe('PLATFORM_ERROR');
    expect(unclear.seen).toHaveLength(1);
    const limited = clientWith((_r, i) =>
      i === 0
        ? reply(429, { Message: 'slow down' }, { 'Retry-After': '0' })
        : reply(200, { CommandId: 'new' }),
    );
    expect(await limited.api.addKeyCutter(request)).toBe('new');
    expect(limited.seen).toHaveLength(2);
  });

  it('stops at once when the caller aborts during the backoff', async () => {
    const clock = new ManualClock();
    const { api, seen } = clientWith(() => reply(503, { Message: 'busy' }), {
      clock,
      retryDelay: { minMs: 1000, maxMs: 1000 },
    });
    const controller = new AbortController();
    const pending = failure(() => api.devices({ signal: controller.signal }));
    await eventually('clock.pending > 0', () => clock.pending > 0);
    expect(seen).toHaveLength(1);
    controller.abort();
    expect((await pending).code).toBe('ABORTED');
    await clock.advance(5000);
    expect(seen).toHaveLength(1);
  });

  it('aborts a request in flight without retrying it', async () => {
    const controller = new AbortController();
    const { api, seen } = clientWith(
      (request) =>
        new Promise<Response>((_resolve, reject) => {
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason));
          controller.abort();
        }),
    );
    const error = await failure(() => api.devices({ signal: controller.signal }));
    expect(error).toMatchObject({ code: 'ABORTED', retryable: false });
    expect(seen).toHaveLength(1);
  });

  it('a throwing onRequest hook does not change the outcome', async () => {
    const { api } = clientWith(() => reply(200, { Devices: [] }), {
      onRequest: () => {
        throw new Error('metrics broke');
      },
    });
    await expect(api.devices()).resolves.toEqual([]);
  });

  it('backs off through the injected clock', async () => {
    const clock = new ManualClock();
    const { api, seen } = clientWith((_r, i) => (i === 0 ? reply(500, {}) : reply(200, { Devices: [] })), {
      clock,
      random: () => 0,
      retryDelay: { minMs: 800, maxMs: 10_000 },
    });
    const pending = api.devices();
    await eventually('clock.pending > 0', () => clock.pending > 0);
    await clock.advance(399);
    expect(seen).toHaveLength(1);
    await clock.advance(1);
    await expect(pending).resolves.toEqual([]);
    expect(seen).toHaveLength(2);
  });
});

describe('failures below HTTP (real sockets on 127.0.0.1)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const created = createServer(handler);
    server = created;
    await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(created.address() as AddressInfo).port}`;
  }

  it('a refused connection is PLATFORM_UNREACHABLE, marked as not sent', async () => {
    const url = await listen(() => {});
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    const api = createConnectorClient({ baseUrl: url, ...SAMPLE, retries: 0 });
    const error = await failure(() => api.devices());
    expect(error).toMatchObject({ code: 'PLATFORM_UNREACHABLE', details: { status: 0, sent: false } });
  });

  it('a silent platform is PLATFORM_TIMEOUT', async () => {
    const url = await listen(() => {
      // never answers
    });
    const records: RequestRecord[] = [];
    const api = createConnectorClient({
      baseUrl: url,
      ...SAMPLE,
      retries: 1,
      requestTimeoutMs: 100,
      ...fast,
      onRequest: (r) => records.push(r),
    });
    expect((await failure(() => api.devices())).code).toBe('PLATFORM_TIMEOUT');
    expect(records.map((r) => [r.status, r.errorCode])).toEqual([
      [0, 'PLATFORM_TIMEOUT'],
      [0, 'PLATFORM_TIMEOUT'],
    ]);
  });

  it('talks to a real HTTP server end to end', async () => {
    let seenBody = '';
    const url = await listen((req, res) => {
      req.on('data', (chunk: Buffer) => {
        seenBody += chunk.toString();
      });
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Request-Id': 'live-1' });
        res.end(JSON.stringify({ Devices: [{ Id: 'd1', Type: 'Printer', Name: 'P' }] }));
      });
    });
    const records: RequestRecord[] = [];
    // The client's clock is a manual one: nothing waits on it here, so both durations are exactly 0.
    const api = createConnectorClient({
      baseUrl: url,
      ...SAMPLE,
      clock: new ManualClock(),
      onRequest: (r) => records.push(r),
    });
    expect(await api.devices()).toEqual([{ Id: 'd1', Type: 'Printer', Name: 'P' }]);
    expect(JSON.parse(seenBody)).toEqual({
      ClientToken: SAMPLE.clientToken,
      AccessToken: SAMPLE.accessToken,
      Client: SAMPLE.client,
    });
    expect(records).toEqual([
      {
        operation: 'devices/getAll',
        status: 200,
        durationMs: 0,
        requestId: 'live-1',
        // node:http sends an HTTP-date; doctor measures the clock skew from it
        date: expect.stringMatching(/^\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/),
        budgetWaitMs: 0,
      },
    ]);
  });
});

describe('secrets', () => {
  it('no token appears in any log line or error, even when the platform echoes it', async () => {
    const log = createMemoryLogger({ level: 'debug' });
    const echo = `Invalid AccessToken ${SAMPLE.accessToken} for ClientToken ${SAMPLE.clientToken}`;
    const statuses = [400, 401, 403, 404, 409, 429, 500];
    const errors: AgentError[] = [];
    for (const status of statuses) {
      const { api } = clientWith(() => reply(status, { Message: echo }, { 'Retry-After': '0' }), {
        log,
        retries: 1,
      });
      errors.push(await failure(() => api.devices()));
      errors.push(await failure(() => api.updateCommand({ CommandId: 'c', State: 'Error', Notes: 'x' })));
    }
    const thrower = clientWith(
      () => {
        throw new TypeError(`fetch failed for ${SAMPLE.accessToken}`);
      },
      { log, retries: 1 },
    );
    errors.push(await failure(() => thrower.api.devices()));
    const invalid = clientWith(() => reply(200, {}), { log });
    errors.push(await failure(() => invalid.api.devices()));
    errors.push(await failure(() => invalid.api.commandsByIds([''])));

    expect(log.lines.length).toBeGreaterThan(10);
    const text = [
      ...log.lines,
      ...errors.flatMap((e) => [e.message, english(e.notes), JSON.stringify(e.toJSON()), String(e.stack)]),
    ].join('\n');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(SAMPLE.accessToken);
    expect(text).not.toContain(SAMPLE.clientToken);
  });
});
