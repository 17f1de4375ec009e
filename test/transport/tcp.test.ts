import { createServer, type Server, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TcpTransport } from '../../src/transport/tcp.js';
import { eventually } from '../helpers/eventually.js';

let server: Server | undefined;
const peers: Socket[] = [];

async function listen(onSocket: (s: Socket) => void): Promise<number> {
  server = createServer((s) => {
    peers.push(s);
    onSocket(s);
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

afterEach(async () => {
  for (const p of peers.splice(0)) p.destroy();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

describe('TcpTransport', () => {
  it('exchanges bytes and re-opens as a new connection with the same listeners', async () => {
    let accepted = 0;
    const port = await listen((s) => {
      accepted++;
      s.on('data', (d) => s.write(Buffer.concat([Buffer.from('>'), d])));
    });
    const t = new TcpTransport({ type: 'tcp', host: '127.0.0.1', port });
    const got: string[] = [];
    const closes: unknown[] = [];
    t.onData((c) => got.push(c.toString()));
    t.onClose((e) => closes.push(e));
    await t.open();
    await t.open();
    await t.write(Buffer.from('a'));
    await eventually("got.join('') === '>a'", () => got.join('') === '>a');
    await t.close();
    await t.close();
    expect(t.isOpen).toBe(false);
    await t.open();
    await t.write(Buffer.from('b'));
    await eventually("got.join('') === '>a>b'", () => got.join('') === '>a>b');
    expect(accepted).toBe(2);
    expect(closes).toEqual([]);
    await t.close();
  });

  it('reports a peer hang-up through onClose and refuses writes afterwards', async () => {
    const port = await listen((s) => setImmediate(() => s.end()));
    const t = new TcpTransport({ type: 'tcp', host: '127.0.0.1', port });
    const closes: Array<Error | undefined> = [];
    t.onClose((e) => closes.push(e));
    await t.open();
    await eventually('closes.length === 1', () => closes.length === 1);
    expect(t.isOpen).toBe(false);
    await expect(t.write(Buffer.of(1))).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
  });

  it('rejects DEVICE_UNAVAILABLE when refused and when the connection never comes', async () => {
    const port = await listen(() => undefined);
    await new Promise((r) => server?.close(r));
    server = undefined;
    await expect(new TcpTransport({ type: 'tcp', host: '127.0.0.1', port }).open()).rejects.toMatchObject({
      code: 'DEVICE_UNAVAILABLE',
      details: { errno: 'ECONNREFUSED' },
    });
    const hanging = new TcpTransport(
      { type: 'tcp', host: '192.0.2.1', port: 1, connectTimeoutMs: 30 },
      { connect: () => new Socket() },
    );
    await expect(hanging.open()).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
  });

  it('rejects ABORTED when the signal fires during connect', async () => {
    const controller = new AbortController();
    const t = new TcpTransport({ type: 'tcp', host: '192.0.2.1', port: 1 }, { connect: () => new Socket() });
    const opening = t.open(controller.signal);
    controller.abort();
    await expect(opening).rejects.toMatchObject({ code: 'ABORTED' });
    expect(t.description).toBe('tcp 192.0.2.1:1');
  });
});
