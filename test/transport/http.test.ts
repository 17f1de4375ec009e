import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpFailure } from '../../src/transport/http.js';
import { eventually } from '../helpers/eventually.js';
import { selfSignedCertificate } from '../helpers/tls.js';
import { requireTool } from '../helpers/tools.js';

const servers: Array<{ close(cb?: () => void): unknown; closeAllConnections?: () => void }> = [];

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections?.();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server: Server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function failure(promise: Promise<unknown>): Promise<HttpFailure> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as HttpFailure,
  );
}

const base = { timeoutMs: 5000, maxBytes: 1024 * 1024 };

describe('createHttpClient (the agent’s one HTTP stack)', () => {
  it('sends method, headers and body, and answers status, headers and the whole body', async () => {
    const url = await listen((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        res.writeHead(201, 'Made', { 'X-Echo': req.headers['content-type'] ?? '' });
        res.end(`${req.method} ${body}`);
      });
    });
    const client = createHttpClient();
    const answer = await client.request({
      ...base,
      method: 'POST',
      url: `${url}/x`,
      headers: { 'Content-Type': 'text/xml' },
      body: '<è/>',
    });
    expect(answer.status).toBe(201);
    expect(answer.statusText).toBe('Made');
    expect(answer.header('X-ECHO')).toBe('text/xml');
    expect(answer.body.toString('utf8')).toBe('POST <è/>');
    client.close();
  });

  it('refuses an answer whose declared length is over the cap, and one that streams past it', async () => {
    const url = await listen((req, res) => {
      if (req.url === '/declared') {
        res.writeHead(200, { 'Content-Length': String(10 * 1024 * 1024) });
        res.write(Buffer.alloc(1024));
        return; // never ends: the client must not wait for it
      }
      res.writeHead(200); // chunked, no length
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      const timer = setInterval(() => {
        if (!res.write(chunk)) return;
      }, 1);
      res.on('close', () => clearInterval(timer));
    });
    const client = createHttpClient();
    const declared = await failure(client.request({ ...base, method: 'GET', url: `${url}/declared` }));
    expect(declared.code).toBe('HTTP_TOO_LARGE');
    expect(declared.sent).toBe(true);
    const streamed = await failure(client.request({ ...base, method: 'GET', url: `${url}/stream` }));
    expect(streamed.code).toBe('HTTP_TOO_LARGE');
    client.close();
  });

  it('caps the decoded size: a small gzip answer that inflates past the cap is refused', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) });
      res.end(bomb);
    });
    const client = createHttpClient();
    const error = await failure(client.request({ ...base, method: 'GET', url }));
    expect(error.code).toBe('HTTP_TOO_LARGE');
    const ok = await client.request({ ...base, maxBytes: 60 * 1024 * 1024, method: 'GET', url });
    expect(ok.body.length).toBe(50 * 1024 * 1024);
    client.close();
  });

  it('says the request never left when the connection is refused', async () => {
    const probe = createTcpServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = createHttpClient();
    const error = await failure(
      client.request({ ...base, method: 'POST', url: `http://127.0.0.1:${port}/`, body: 'x' }),
    );
    expect(error.code).toBe('HTTP_CONNECT');
    expect(error.sent).toBe(false);
    expect(error.systemCode).toBe('ECONNREFUSED');
  });

  it('times out a peer that takes the request and never answers, saying it may have arrived', async () => {
    let arrived = false;
    const url = await listen(() => {
      arrived = true; // and never answer
    });
    const client = createHttpClient();
    const error = await failure(
      client.request({ ...base, timeoutMs: 300, method: 'POST', url, body: 'doc' }),
    );
    expect(arrived).toBe(true);
    expect(error.code).toBe('HTTP_TIMEOUT');
    expect(error.sent).toBe(true);
  });

  it('takes an answer already waiting when its timer fires late (a stalled event loop), not a timeout', async () => {
    const url = await listen((_req, res) => {
      // The whole answer leaves, then this process stalls past the client's deadline (as a long
      // synchronous task would): when the loop turns again, the expired timer and the waiting
      // answer are both there, and the timer's phase comes first.
      res.once('finish', () => {
        const until = Date.now() + 400;
        while (Date.now() < until) {
          // stalled
        }
      });
      res.end('printed');
    });
    const client = createHttpClient();
    const answer = await client.request({ ...base, timeoutMs: 100, method: 'POST', url, body: 'doc' });
    expect(answer.body.toString('utf8')).toBe('printed');
  });

  it('a connection cut in the middle of the answer is a broken exchange that may have arrived', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('half');
      setImmediate(() => res.socket?.destroy());
    });
    const client = createHttpClient();
    const error = await failure(client.request({ ...base, method: 'GET', url }));
    expect(error.code).toBe('HTTP_BROKEN');
    expect(error.sent).toBe(true);
  });

  it('rejects with the signal’s reason on abort, also while the body is read', async () => {
    let started = false;
    const url = await listen((_req, res) => {
      res.writeHead(200);
      res.write('start'); // and never end
      started = true;
    });
    const client = createHttpClient();
    const controller = new AbortController();
    const pending = client.request({ ...base, method: 'GET', url, signal: controller.signal });
    await eventually('the server to start the body', () => started);
    controller.abort(new Error('stop now'));
    await expect(pending).rejects.toThrow('stop now');
  });

  it('refuses addresses that are not http(s)', async () => {
    const client = createHttpClient();
    expect((await failure(client.request({ ...base, method: 'GET', url: 'ftp://127.0.0.1/' }))).code).toBe(
      'HTTP_BAD_URL',
    );
    expect((await failure(client.request({ ...base, method: 'GET', url: 'not a url' }))).code).toBe(
      'HTTP_BAD_URL',
    );
  });
});

const haveOpenssl = requireTool('openssl', 'a self-signed certificate for the HTTPS tests');

describe.runIf(haveOpenssl)('HTTPS with a pinned fingerprint', () => {
  let dir = '';
  let key = '';
  let cert = '';
  let fingerprint = '';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'http-tls-'));
    ({ key, cert, fingerprint } = selfSignedCertificate(dir, 'device.local'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function tlsServer(): Promise<{ url: string; requests: () => number }> {
    let requests = 0;
    const server = createHttpsServer({ key, cert }, (_req, res) => {
      requests++;
      res.end('ok');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests: () => requests };
  }

  it('talks to the pinned certificate and never hands a request to any other', async () => {
    const peer = await tlsServer();
    const good = createHttpClient({ tls: { fingerprint256: fingerprint.toLowerCase() } });
    expect(
      (await good.request({ ...base, method: 'POST', url: peer.url, body: 'doc' })).body.toString(),
    ).toBe('ok');
    expect(peer.requests()).toBe(1);
    const other = fingerprint.replace(/^../, fingerprint.startsWith('00') ? '11' : '00');
    const bad = createHttpClient({ tls: { fingerprint256: other } });
    const error = await failure(bad.request({ ...base, method: 'POST', url: peer.url, body: 'doc' }));
    expect(error.code).toBe('HTTP_FINGERPRINT');
    expect(error.sent).toBe(false);
    expect(peer.requests()).toBe(1);
    good.close();
    bad.close();
  });

  it('refuses a self-signed peer by default (nothing sent), trusts it as a CA or when insecure', async () => {
    const peer = await tlsServer();
    const strict = createHttpClient();
    const error = await failure(strict.request({ ...base, method: 'GET', url: peer.url }));
    expect(error.code).toBe('HTTP_TLS');
    expect(error.sent).toBe(false);
    const withCa = createHttpClient({ tls: { ca: cert, serverName: 'device.local' } });
    expect((await withCa.request({ ...base, method: 'GET', url: peer.url })).status).toBe(200);
    const insecure = createHttpClient({ tls: { insecure: true } });
    expect((await insecure.request({ ...base, method: 'GET', url: peer.url })).status).toBe(200);
    expect(peer.requests()).toBe(2);
  });
});
