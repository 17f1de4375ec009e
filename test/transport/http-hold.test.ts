import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpFailure } from '../../src/transport/http.js';

/**
 * `HttpRequest.holdUntil`: the connection opens at once, and not a byte (headers included) reaches
 * the peer before the hold resolves. The peer here is a plain TCP server, so what arrived when is
 * seen byte by byte; every byte is checked against the hold's state as it arrives.
 */

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => s.close(() => resolve()));
});

interface Peer {
  url: string;
  /** Resolves with the first connection. */
  connected: Promise<Socket>;
  /** Resolves when the first connection closes, with every byte it carried. */
  closed: Promise<string>;
  /** Bytes that arrived while the test said the hold was still closed. */
  early: number;
}

/** Answers `200 OK` once a request's body (`Content-Length`) is in. */
async function peer(isHeld: () => boolean): Promise<Peer> {
  let onConnect: (socket: Socket) => void = () => undefined;
  let onClose: (text: string) => void = () => undefined;
  const connected = new Promise<Socket>((resolve) => (onConnect = resolve));
  const closed = new Promise<string>((resolve) => (onClose = resolve));
  const state: Peer = { url: '', connected, closed, early: 0 };
  const server = createServer((socket) => {
    onConnect(socket);
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      if (isHeld()) state.early += chunk.length;
      text += chunk.toString('latin1');
      const [head, body] = text.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1] ?? Number.NaN);
      if (body !== undefined && body.length >= length) {
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => onClose(text));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/doc`;
  return state;
}

function gate() {
  let open: () => void = () => undefined;
  let refuse: (reason: unknown) => void = () => undefined;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    refuse = reject;
  });
  return { promise, open, refuse };
}

/** The request's rejection (an `HttpFailure`); undefined when it was answered. */
function failure(answer: Promise<unknown>): Promise<HttpFailure | undefined> {
  return answer.then(
    () => undefined,
    (e: unknown) => e as HttpFailure,
  );
}

const base = { method: 'POST' as const, body: '<receipt/>', timeoutMs: 10_000, maxBytes: 1024 };

/** A peer, a client, and a request to the peer held by a gate the test opens or refuses. */
async function heldRequest(isHeld: () => boolean) {
  const hold = gate();
  const p = await peer(isHeld);
  const client = createHttpClient();
  const answer = client.request({ ...base, url: p.url, holdUntil: hold.promise });
  return { hold, p, client, answer };
}

describe('http: a request held until its checkpoint is on disk', () => {
  it('connects at once and writes nothing until the hold resolves, then the whole request', async () => {
    let held = true;
    const { hold, p, client, answer } = await heldRequest(() => held);
    await p.connected;
    // Room for early bytes to arrive (they would be counted); the test's verdict never depends on
    // this wait being long enough: the rejecting case below checks the same without one.
    await new Promise((resolve) => setTimeout(resolve, 100));
    held = false;
    hold.open();
    const response = await answer;
    expect(response.body.toString()).toBe('ok');
    expect(p.early).toBe(0);
    expect(await p.closed).toMatch(/^POST \/doc HTTP\/1\.1\r\n[\s\S]*\r\n\r\n<receipt\/>$/);
    client.close();
  });

  it('abandons the request unsent when the hold rejects: the peer saw a connection and no byte', async () => {
    const { hold, p, client, answer } = await heldRequest(() => true);
    await p.connected;
    const reason = new Error('journal full');
    hold.refuse(reason);
    const error = await failure(answer);
    expect(error).toMatchObject({ code: 'HTTP_WITHHELD', sent: false, cause: reason });
    expect(await p.closed).toBe('');
    expect(p.early).toBe(0);
    client.close();
  });

  it('says nothing was sent when the connection breaks during the hold', async () => {
    const { hold, p, client, answer } = await heldRequest(() => true);
    (await p.connected).destroy();
    const error = await failure(answer);
    expect(error?.sent).toBe(false);
    hold.open();
    client.close();
  });
});
