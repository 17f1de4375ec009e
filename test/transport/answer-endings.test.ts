import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { Transform } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { postXml } from '../../drivers/epson-fpmate/http.js';
import { IppClient } from '../../drivers/ipp-printer/ipp-client.js';
import { createHttpFetch } from '../../src/connector/http-transport.js';
import { createConnectorClient } from '../../src/connector/index.js';
import { AgentError } from '../../src/errors.js';
import { createHttpClient } from '../../src/transport/http.js';
import { eventually } from '../helpers/eventually.js';
import { letPendingWorkRun } from '../helpers/pending-work.js';

/**
 * Issue 13.2, "errors at the end of a response are caught", on every HTTP path (the platform's,
 * the IPP printer's, the RT printer's): a peer that breaks its answer at the end — a gzip bomb, a
 * gzip stream with garbage or cut short at its end, a body shorter than its Content-Length, a bad
 * chunk trailer, a reset after the body, an endless body — makes the call fail with the path's
 * own error, and nothing escapes to the process.
 */

type Ending = (socket: Socket) => void;

/** 300 MB of zeros, about 300 KB gzipped: made once. */
let bomb: Buffer | undefined;

const head = (extra: string) => `HTTP/1.1 200 OK\r\nConnection: close\r\n${extra}\r\n`;

const ENDINGS: Record<string, Ending> = {
  'a gzip bomb (inflates past every cap)': (s) => {
    bomb ??= gzipSync(Buffer.alloc(300 * 1024 * 1024), { level: 9 });
    s.end(
      Buffer.concat([
        Buffer.from(head(`Content-Encoding: gzip\r\nContent-Length: ${bomb.length}\r\n`)),
        bomb,
      ]),
    );
  },
  'gzip with garbage after its end': (s) => {
    const body = Buffer.concat([gzipSync('{"Commands":[]}'), Buffer.from('GARBAGE-AFTER-THE-END')]);
    s.end(
      Buffer.concat([
        Buffer.from(head(`Content-Encoding: gzip\r\nContent-Length: ${body.length}\r\n`)),
        body,
      ]),
    );
  },
  'gzip cut short at its end': (s) => {
    const gz = gzipSync(Buffer.alloc(100_000, 0x61));
    const body = gz.subarray(0, gz.length - 12);
    s.end(
      Buffer.concat([
        Buffer.from(head(`Content-Encoding: gzip\r\nContent-Length: ${body.length}\r\n`)),
        body,
      ]),
    );
  },
  'brotli that is not brotli': (s) => {
    const body = Buffer.concat([
      brotliCompressSync('{"a":1}').subarray(0, 3),
      Buffer.from('not brotli at all'),
    ]);
    s.end(
      Buffer.concat([Buffer.from(head(`Content-Encoding: br\r\nContent-Length: ${body.length}\r\n`)), body]),
    );
  },
  'a body shorter than its Content-Length': (s) => {
    s.end(`${head('Content-Type: application/json\r\nContent-Length: 1000\r\n')}{"Commands":[`);
  },
  'a chunked body with a broken last chunk': (s) => {
    s.end(`${head('Transfer-Encoding: chunked\r\n')}5\r\n{"Com\r\nZZ\r\nmands\r\n`);
  },
  'a reset right after the body': (s) => {
    s.write(`${head('Content-Length: 2\r\n')}{}`);
    s.resetAndDestroy();
  },
  'an endless body without a length': (s) => {
    s.write(head(''));
    const chunk = Buffer.alloc(64 * 1024, 0x7b);
    const pump = () => {
      while (!s.destroyed && s.write(chunk)) {
        // fill the socket until it pushes back
      }
      if (!s.destroyed) s.once('drain', pump);
    };
    s.on('error', () => {});
    pump();
  },
};

/** The decoders the HTTP client makes (`src/transport/http.ts`), kept to wait for their work. */
const decoders = vi.hoisted(() => new Set<Transform>());
vi.mock('node:zlib', async (importOriginal) => {
  const zlib = await importOriginal<typeof import('node:zlib')>();
  const kept =
    <A extends unknown[]>(make: (...args: A) => Transform) =>
    (...args: A) => {
      const decoder = make(...args);
      decoders.add(decoder);
      return decoder;
    };
  return {
    ...zlib,
    createGunzip: kept(zlib.createGunzip),
    createInflate: kept(zlib.createInflate),
    createBrotliDecompress: kept(zlib.createBrotliDecompress),
  };
});

/** The sockets the clients open, kept to wait for their close. */
const clientSockets = new Set<Socket>();
const onClientSocket = (message: unknown) => clientSockets.add((message as { socket: Socket }).socket);

let server: Server;
let port: number;
let ending: Ending = () => {};
const escaped: unknown[] = [];
const onEscape = (error: unknown) => escaped.push(error);

beforeAll(async () => {
  subscribe('net.client.socket', onClientSocket);
  server = createServer((socket) => {
    socket.on('error', () => {});
    let seen = '';
    socket.on('data', (chunk) => {
      seen += chunk.toString('latin1');
      const headEnd = seen.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = Number(/content-length: *(\d+)/i.exec(seen.slice(0, headEnd))?.[1] ?? 0);
      if (seen.length - headEnd - 4 >= length) {
        seen = '';
        ending(socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  unsubscribe('net.client.socket', onClientSocket);
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  escaped.length = 0;
  clientSockets.clear();
  decoders.clear();
  process.on('uncaughtException', onEscape);
  process.on('unhandledRejection', onEscape);
});
afterEach(async () => {
  // Whatever a broken answer leaves behind comes from the client's sockets or its decoders: once
  // every socket has closed and every decoder has nothing left to inflate, the errors they could
  // still raise have been raised, and a few turns of the loop bring them (and any unhandled
  // rejection) to the process.
  await Promise.all([...clientSockets].map((socket) => (socket.closed ? undefined : once(socket, 'close'))));
  await eventually(
    () => `the decoders to finish (${[...decoders].map((d) => d.writableLength).join(', ')} bytes left)`,
    () => [...decoders].every((decoder) => decoder.destroyed || decoder.writableLength === 0),
  );
  await letPendingWorkRun();
  process.off('uncaughtException', onEscape);
  process.off('unhandledRejection', onEscape);
  expect(escaped).toEqual([]);
});

describe.each(Object.entries(ENDINGS))('an answer ending with %s', (_name, end) => {
  it('the platform path rejects with an AgentError', async () => {
    ending = end;
    const client = createConnectorClient({
      baseUrl: `http://127.0.0.1:${port}`,
      clientToken: 'client-ENDINGS-000111',
      accessToken: 'access-ENDINGS-000222',
      client: 'endings-test 1.0',
      fetch: createHttpFetch({ maxBytes: 4 * 1024 * 1024 }),
      retries: 0,
      requestTimeoutMs: 5000,
    });
    const error = await client.activeCommands().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentError);
  });

  it('the IPP printer path rejects with its transport error', async () => {
    ending = end;
    const ipp = new IppClient(createHttpClient(), 1024 * 1024);
    const error = await ipp.call(`ipp://127.0.0.1:${port}/printers/x`, 0x000b, [], { timeoutMs: 5000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'IppTransportError' });
  });

  it('the RT printer path says the answer was lost or unusable, never throws', async () => {
    ending = end;
    const result = await postXml(
      createHttpClient(),
      new URL(`http://127.0.0.1:${port}/cgi-bin/fpmate.cgi`),
      '<x/>',
      {
        timeoutMs: 5000,
      },
    );
    // A reset right after a complete body, or a body the parser later refuses, is still an answer.
    expect(['lost', 'answer']).toContain(result.kind);
    if (result.kind === 'answer') expect(result.body.length).toBeLessThanOrEqual(256 * 1024);
  });
});

describe('the watch on what a broken answer leaves behind', () => {
  it('sees the socket and the decoder of a call, so the check after each test waits for them', async () => {
    ending = ENDINGS['gzip with garbage after its end'] as Ending;
    await createHttpClient()
      .request({ url: `http://127.0.0.1:${port}/`, method: 'GET', timeoutMs: 5000, maxBytes: 1024 * 1024 })
      .catch(() => undefined);
    expect([clientSockets.size, decoders.size]).toEqual([1, 1]);
  });
});
