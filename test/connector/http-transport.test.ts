import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpFetch } from '../../src/connector/http-transport.js';
import { eventually } from '../helpers/eventually.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const created = createServer(handler);
  server = created;
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(created.address() as AddressInfo).port}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
  });
}

const post = (body: string, signal?: AbortSignal) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  body,
  ...(signal ? { signal } : {}),
});

describe('createHttpFetch (the connector client’s transport)', () => {
  it('POSTs the body with its headers and answers status, headers and text; the connection is kept alive', async () => {
    const seen: { method?: string; type?: string; length?: string; body: string; port?: number }[] = [];
    const url = await listen(async (req, res) => {
      seen.push({
        method: req.method,
        type: req.headers['content-type'],
        length: req.headers['content-length'],
        body: await readBody(req),
        port: req.socket.remotePort,
      });
      res.writeHead(201, 'Made', { 'Request-Id': 'req-1', 'Content-Type': 'application/json' });
      res.end('{"ok":"è"}');
    });
    const fetch = createHttpFetch();
    const first = await fetch(`${url}/api/x`, post('{"a":"è"}'));
    const second = await fetch(`${url}/api/x`, post('{}'));
    expect(first.status).toBe(201);
    expect(first.ok).toBe(true);
    expect(first.statusText).toBe('Made');
    expect(first.headers.get('Request-Id')).toBe('req-1');
    expect(first.headers.get('Retry-After')).toBeNull();
    expect(await first.text()).toBe('{"ok":"è"}');
    expect(second.status).toBe(201);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      type: 'application/json',
      length: '10',
      body: '{"a":"è"}',
    });
    expect(seen[1]?.port).toBe(seen[0]?.port);
  });

  it('a non-2xx answer is not ok and keeps its body', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(429, { 'Retry-After': '3' });
      res.end('{"Message":"slow down"}');
    });
    const answer = await createHttpFetch()(url, post('{}'));
    expect(answer).toMatchObject({ status: 429, ok: false, statusText: 'Too Many Requests' });
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(await answer.text()).toBe('{"Message":"slow down"}');
  });

  it('decompresses a gzip answer', async () => {
    const url = await listen((req, res) => {
      expect(req.headers['accept-encoding']).toContain('gzip');
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.end(gzipSync('{"big":true}'));
    });
    expect(await (await createHttpFetch()(url, post('{}'))).text()).toBe('{"big":true}');
  });

  it('a refused connection rejects with the socket error code', async () => {
    const url = await listen(() => {});
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    await expect(createHttpFetch()(url, post('{}'))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('rejects with the signal’s reason when aborted before the answer or while its body arrives', async () => {
    const served: string[] = [];
    const url = await listen((req, res) => {
      served.push(req.url ?? '');
      if (req.url === '/half') {
        res.writeHead(200);
        res.write('{"partial":');
      }
      // never ends
    });
    const fetch = createHttpFetch();
    // Each abort comes once the server has the request (an event), not after some milliseconds.
    const silent = new AbortController();
    const pending = fetch(`${url}/silent`, post('{}', silent.signal));
    await eventually('the silent request to reach the server', () => served.includes('/silent'));
    silent.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');

    const half = new AbortController();
    const halfAnswered = fetch(`${url}/half`, post('{}', half.signal));
    await eventually('the server to send half an answer', () => served.includes('/half'));
    // What AbortSignal.timeout() aborts with.
    half.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    await expect(halfAnswered).rejects.toMatchObject({ name: 'TimeoutError' });

    const already = AbortSignal.abort(new Error('before'));
    await expect(fetch(url, post('{}', already))).rejects.toThrow('before');
  });
});
