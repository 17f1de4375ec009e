import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServerOptions, type WebSocket, WebSocketServer } from 'ws';
import { ManualClock } from '../../src/clock.js';
import { ConnectorSocket, type ConnectorSocketOptions } from '../../src/connector/index.js';
import { createMemoryLogger } from '../../src/log.js';
import { eventually } from '../helpers/eventually.js';
import { loadFixture } from './fake-platform.js';

const TOKENS = { clientToken: 'client-token-123456', accessToken: 'access-token-654321' };

interface Platform {
  url: string;
  wss: WebSocketServer;
  connections: { ws: WebSocket; request: IncomingMessage }[];
  /** Resolves with the next connection (or one that arrived since the last call). */
  nextConnection(): Promise<{ ws: WebSocket; request: IncomingMessage }>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function platform(options: ServerOptions = {}): Promise<Platform> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', ...options });
  await once(wss, 'listening');
  const connections: Platform['connections'] = [];
  let taken = 0;
  wss.on('connection', (ws, request) => connections.push({ ws, request }));
  cleanups.push(async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws/connector`,
    wss,
    connections,
    async nextConnection() {
      await eventually(`connection #${taken + 1} to the platform`, () => connections.length > taken);
      return connections[taken++] as Platform['connections'][number];
    },
  };
}

function socket(url: string, extra: Partial<ConnectorSocketOptions> = {}) {
  const log = createMemoryLogger({ level: 'debug' });
  const s = new ConnectorSocket({ url, ...TOKENS, log, reconnect: { minMs: 5, maxMs: 20 }, ...extra });
  cleanups.push(() => s.stop());
  const connected: boolean[] = [];
  const disconnected: string[] = [];
  const commands: { id: string; state?: string }[] = [];
  s.onConnected(({ reconnect }) => connected.push(reconnect));
  s.onDisconnected(({ reason }) => disconnected.push(reason));
  s.onCommand((event) => commands.push(event));
  return { socket: s, log, connected, disconnected, commands };
}

describe('ConnectorSocket against a loopback ws server', () => {
  it('authenticates with the tokens as cookies and delivers DeviceCommand events only', async () => {
    const p = await platform();
    const s = socket(p.url);
    expect(s.socket.state).toBe('idle');
    s.socket.start();
    const { ws, request } = await p.nextConnection();
    expect(request.headers.cookie).toBe(
      `ClientToken=${TOKENS.clientToken}; AccessToken=${TOKENS.accessToken}`,
    );
    expect(request.url).toBe('/ws/connector');
    await eventually('s.connected.length === 1', () => s.connected.length === 1);
    expect(s.connected).toEqual([false]);
    expect(s.socket.state).toBe('open');

    ws.send(JSON.stringify(loadFixture('websocket-message.json')));
    ws.send('this is not JSON');
    ws.send(JSON.stringify({ Something: 'else' }));
    ws.send(JSON.stringify({ Events: [{ Type: 'DeviceCommand', Id: 'c-2' }, { Type: 'DeviceCommand' }] }));
    await eventually('s.commands.length === 2', () => s.commands.length === 2);
    expect(s.commands).toEqual([
      { id: '2391a3df-1c61-4131-b6f8-c85b4234adcb', state: 'Pending' },
      { id: 'c-2' },
    ]);
    expect(s.log.lines.join('\n')).toContain('not JSON');
    // Malformed messages are dropped, never fatal.
    expect(s.socket.state).toBe('open');
    expect(s.disconnected).toEqual([]);
  });

  it('reconnects after the server drops the connection and says so', async () => {
    const p = await platform();
    const s = socket(p.url);
    s.socket.start();
    const first = await p.nextConnection();
    await eventually('s.connected.length === 1', () => s.connected.length === 1);
    first.ws.terminate();
    const second = await p.nextConnection();
    expect(second.request.headers.cookie).toContain(`AccessToken=${TOKENS.accessToken}`);
    await eventually('s.connected.length === 2', () => s.connected.length === 2);
    expect(s.connected).toEqual([false, true]);
    expect(s.disconnected).toHaveLength(1);
    expect(s.disconnected[0]).toContain('connection lost');
    second.ws.send(JSON.stringify({ Events: [{ Type: 'DeviceCommand', Id: 'after', State: 'Pending' }] }));
    await eventually('s.commands.length === 1', () => s.commands.length === 1);
  });

  it('drops a silent connection after a missed pong and reconnects', async () => {
    const p = await platform({ autoPong: false });
    const clock = new ManualClock(Date.now());
    const s = socket(p.url, { pingIntervalMs: 40, clock });
    s.socket.start();
    const first = await p.nextConnection();
    await eventually('the first connection', () => s.connected.length === 1);
    let pinged = 0;
    first.ws.on('ping', () => pinged++);
    await clock.advance(40);
    await eventually('the ping at the platform', () => pinged === 1);
    // Unanswered when the next interval comes: dropped.
    const closed = once(first.ws, 'close');
    await clock.advance(40);
    await closed;
    await eventually(
      'the drop noticed and a reconnect scheduled',
      () => s.disconnected.length === 1 && clock.pending > 0,
    );
    await clock.advance(20);
    await p.nextConnection();
    await eventually('s.connected.length === 2', () => s.connected.length === 2);
    expect(s.connected).toEqual([false, true]);
    expect(s.log.lines.join('\n')).toContain('no pong');
  });

  it('keeps a connection that answers its pings', async () => {
    const p = await platform();
    const clock = new ManualClock(Date.now());
    const s = socket(p.url, { pingIntervalMs: 20, clock });
    s.socket.start();
    const { ws } = await p.nextConnection();
    await eventually('the connection', () => s.connected.length === 1);
    let pings = 0;
    // The pong goes out before the ping is reported, so a message sent now reaches the agent
    // after the pong: once the agent has the message, it has the pong.
    ws.on('ping', () => {
      pings++;
      ws.send(JSON.stringify({ Events: [{ Type: 'DeviceCommand', Id: `after-ping-${pings}` }] }));
    });
    for (let i = 1; i <= 4; i++) {
      await clock.advance(20);
      await eventually(`the pong of ping ${i} back at the agent`, () => s.commands.length === i);
    }
    await clock.advance(20);
    expect(p.connections).toHaveLength(1);
    expect(s.disconnected).toEqual([]);
  });

  it('keeps retrying a refused handshake without leaking the tokens', async () => {
    let attempts = 0;
    const p = await platform({
      verifyClient: (_info, done) => {
        attempts++;
        done(false, 401, 'Unauthorized');
      },
    });
    const s = socket(p.url);
    s.socket.start();
    await eventually(
      'attempts >= 3 && s.disconnected.length >= 3',
      () => attempts >= 3 && s.disconnected.length >= 3,
    );
    expect(s.connected).toEqual([]);
    expect(s.disconnected[0]).toContain('401');
    await s.socket.stop();
    const text = [...s.log.lines, ...s.disconnected].join('\n');
    expect(text).not.toContain(TOKENS.accessToken);
    expect(text).not.toContain(TOKENS.clientToken);
  });

  it('stop() closes the connection and stops reconnecting; it is idempotent', async () => {
    const p = await platform();
    const clock = new ManualClock(Date.now());
    const s = socket(p.url, { clock });
    s.socket.start();
    s.socket.start(); // a second start is a no-op
    const { ws } = await p.nextConnection();
    await eventually('s.connected.length === 1', () => s.connected.length === 1);
    const closed = once(ws, 'close');
    await s.socket.stop();
    const [code] = await closed;
    expect(code).toBe(1000);
    expect(s.socket.state).toBe('closed');
    await s.socket.stop();
    // Nothing is left scheduled on the socket's clock, so nobody can dial again; and past any
    // reconnect delay nobody has.
    expect(clock.pending).toBe(0);
    await clock.advance(60_000);
    expect(p.connections).toHaveLength(1);
    expect(s.disconnected).toEqual([]);
  });

  it('stops while waiting to reconnect to an unreachable platform', async () => {
    const p = await platform();
    const url = p.url;
    await new Promise((resolve) => p.wss.close(resolve));
    const s = socket(url, { reconnect: { minMs: 60_000, maxMs: 60_000 } });
    s.socket.start();
    await eventually('s.disconnected.length === 1', () => s.disconnected.length === 1);
    expect(s.socket.state).toBe('connecting');
    await s.socket.stop();
    expect(s.socket.state).toBe('closed');
  });

  it('unsubscribed listeners hear nothing more', async () => {
    const p = await platform();
    const s = socket(p.url);
    const heard: string[] = [];
    const off = s.socket.onCommand((e) => heard.push(e.id));
    s.socket.start();
    const { ws } = await p.nextConnection();
    ws.send(JSON.stringify({ Events: [{ Type: 'DeviceCommand', Id: 'one' }] }));
    await eventually('heard.length === 1', () => heard.length === 1);
    off();
    ws.send(JSON.stringify({ Events: [{ Type: 'DeviceCommand', Id: 'two' }] }));
    await eventually('s.commands.length === 2', () => s.commands.length === 2);
    expect(heard).toEqual(['one']);
  });

  it('refuses to start without tokens', () => {
    expect(
      () => new ConnectorSocket({ url: 'ws://127.0.0.1:1/ws/connector', clientToken: '', accessToken: 'x' }),
    ).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});
