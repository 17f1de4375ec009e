import { connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isAgentError } from '../../src/errors.js';
import { createMemoryLogger } from '../../src/log.js';
import { type AcceptedPeer, normalizeAddress, TcpListener } from '../../src/transport/tcp-listener.js';
import { eventually } from '../helpers/eventually.js';

/**
 * The port a device connects to (a FIAS lock server opens the connection to the PMS side, IFC8
 * FIAS specification §7 p.90): bound to the configured address only, open to the allowed
 * addresses only. Every connection here is made on 127.0.0.x; "another address" is 127.0.0.2,
 * a client socket bound there with `localAddress`.
 */

const listeners: TcpListener[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const l of listeners.splice(0)) await l.close();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

function listener(options: Partial<ConstructorParameters<typeof TcpListener>[0]> & { port: number }) {
  const log = createMemoryLogger();
  const l = new TcpListener({ host: '127.0.0.1', allow: ['127.0.0.1'], log, ...options });
  listeners.push(l);
  return { l, log };
}

/** Connects from `localAddress`; resolves with how the connection ended: data, 'closed' or an error code. */
function dial(
  port: number,
  host = '127.0.0.1',
  localAddress?: string,
): Promise<{ socket?: Socket; outcome: string }> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, ...(localAddress ? { localAddress } : {}) });
    sockets.push(socket);
    socket.once('connect', () => resolve({ socket, outcome: 'connected' }));
    socket.once('error', (e: NodeJS.ErrnoException) => resolve({ outcome: e.code ?? e.message }));
  });
}

describe('TcpListener', () => {
  it('hands a connection from an allowed address over as an open Transport, both ways', async () => {
    const port = await freePort();
    const { l } = listener({ port });
    const peers: AcceptedPeer[] = [];
    l.onPeer((p) => peers.push(p));
    await l.listen();
    await l.listen();
    expect(l.listening).toBe(true);
    expect(l.port).toBe(port);
    const { socket } = await dial(port);
    const peer = await eventually('a peer', () => peers[0]);
    expect(peer.address).toBe('127.0.0.1');
    expect(peer.transport.isOpen).toBe(true);
    const got: string[] = [];
    socket?.on('data', (d) => got.push(d.toString()));
    await peer.transport.write(Buffer.from('LS'));
    await eventually('the client got LS', () => got.join('') === 'LS');
    const heard: string[] = [];
    peer.transport.onData((d) => heard.push(d.toString()));
    const closed: unknown[] = [];
    peer.transport.onClose((e) => closed.push(e));
    socket?.write('LD');
    await eventually('the transport heard LD', () => heard.join('') === 'LD');
    socket?.destroy();
    await eventually('onClose after the peer hung up', () => closed.length === 1);
  });

  it('refuses and reports a connection from an address that is not allowed (127.0.0.2), and logs it', async () => {
    const port = await freePort();
    const { l, log } = listener({ port });
    const peers: AcceptedPeer[] = [];
    const refused: string[] = [];
    l.onPeer((p) => peers.push(p));
    l.onRefused((a) => refused.push(a));
    await l.listen();
    const { socket } = await dial(port, '127.0.0.1', '127.0.0.2');
    const ended = await new Promise<string>((resolve) => {
      if (!socket) return resolve('never connected');
      socket.on('data', () => resolve('data'));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve('closed'));
    });
    expect(ended).toBe('closed');
    await eventually('the refusal is reported', () => refused.length === 1);
    expect(refused).toEqual(['127.0.0.2']);
    expect(peers).toEqual([]);
    expect(
      log.lines.some((line) => line.includes('refused a connection') && line.includes('127.0.0.2')),
    ).toBe(true);
    // The allowed address still gets in.
    await dial(port);
    await eventually('the allowed peer', () => peers.length === 1);
  });

  it('listens on the configured address only: the same port on another loopback address is closed', async () => {
    const port = await freePort();
    const { l } = listener({ port });
    await l.listen();
    expect((await dial(port, '127.0.0.2')).outcome).toBe('ECONNREFUSED');
    expect((await dial(port, '127.0.0.1')).outcome).toBe('connected');
  });

  it('a port held by another program: DEVICE_UNAVAILABLE (retryable); an address not on this PC: CONFIG_INVALID', async () => {
    const port = await freePort();
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
    try {
      const { l } = listener({ port });
      const error = await l.listen().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isAgentError(error) && [error.code, error.retryable, error.details.errno]).toEqual([
        'DEVICE_UNAVAILABLE',
        true,
        'EADDRINUSE',
      ]);
      expect(l.listening).toBe(false);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
    const { l: away } = listener({ port, host: '192.0.2.1' });
    const error = await away.listen().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAgentError(error) && [error.code, error.retryable]).toEqual(['CONFIG_INVALID', false]);
  });

  it('close() drops accepted connections and frees the port; listen() binds again', async () => {
    const port = await freePort();
    const { l } = listener({ port });
    await l.listen();
    const { socket } = await dial(port);
    const closed = new Promise<void>((resolve) => socket?.on('close', () => resolve()));
    await l.close();
    await l.close();
    await closed;
    expect(l.listening).toBe(false);
    await l.listen();
    expect((await dial(port)).outcome).toBe('connected');
  });

  it('reads addresses the way the kernel reports them', () => {
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeAddress(' FE80::1 ')).toBe('fe80::1');
  });
});
