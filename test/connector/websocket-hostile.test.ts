import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  ConnectorSocket,
  MAX_EVENTS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  parseSocketMessage,
} from '../../src/connector/websocket.js';
import { createMemoryLogger } from '../../src/log.js';
import { eventually } from '../helpers/eventually.js';

/**
 * Issue 13.2 on the WebSocket: a malformed or huge message can neither crash nor stall the
 * listener. Messages over `MAX_MESSAGE_BYTES` close that connection (the listener reconnects),
 * garbage and over-long ids are dropped, and the next good event still arrives.
 */

const TOKENS = { clientToken: 'client-token-WS-123456', accessToken: 'access-token-WS-654321' };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const event = (id: string, state = 'Pending') =>
  JSON.stringify({ Events: [{ Type: 'DeviceCommand', Id: id, State: state }] });

describe('parseSocketMessage', () => {
  it('drops what is not an event list, and bounds what is', () => {
    expect(parseSocketMessage('<html>')).toEqual({ ok: false, reason: 'not JSON' });
    expect(parseSocketMessage('[]')).toEqual({ ok: false, reason: 'no Events list' });
    expect(parseSocketMessage(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toEqual({
      ok: false,
      reason: 'no Events list',
    });
    const many = Array.from({ length: MAX_EVENTS_PER_MESSAGE + 5 }, (_, i) => ({
      Type: 'DeviceCommand',
      Id: `c${i}`,
    }));
    const bounded = parseSocketMessage(
      JSON.stringify({ Events: [...many, { Type: 'DeviceCommand', Id: 'x'.repeat(10_000) }] }),
    );
    expect(bounded).toMatchObject({ ok: true, skipped: 6 });
    if (bounded.ok) expect(bounded.events).toHaveLength(MAX_EVENTS_PER_MESSAGE);
    expect(
      parseSocketMessage(
        JSON.stringify({ Events: [{ Type: 'DeviceCommand', Id: 'a', State: 'S'.repeat(500) }] }),
      ),
    ).toEqual({
      ok: true,
      events: [{ id: 'a' }],
      skipped: 0,
    });
  });
});

describe('ConnectorSocket against hostile messages', () => {
  it('survives a message over the cap (reconnects), garbage and deep JSON, and still takes the next event', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    const connections: WebSocket[] = [];
    wss.on('connection', (ws) => connections.push(ws));
    cleanups.push(async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
    });
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws/connector`;
    const log = createMemoryLogger({ level: 'debug' });
    const socket = new ConnectorSocket({ url, ...TOKENS, log, reconnect: { minMs: 5, maxMs: 20 } });
    cleanups.push(() => socket.stop());
    const commands: Array<{ id: string; state?: string }> = [];
    const disconnects: string[] = [];
    socket.onCommand((e) => commands.push(e));
    socket.onDisconnected(({ reason }) => disconnects.push(reason));
    socket.start();
    await eventually(
      "connections.length === 1 && socket.state === 'open'",
      () => connections.length === 1 && socket.state === 'open',
    );

    // Over the cap: the connection is closed by the listener, which connects again.
    connections[0]?.send(Buffer.alloc(MAX_MESSAGE_BYTES + 1, 0x20));
    await eventually(
      "connections.length === 2 && socket.state === 'open'",
      () => connections.length === 2 && socket.state === 'open',
    );
    expect(disconnects[0]).toMatch(/Max payload size exceeded/);

    const ws = connections[1] as WebSocket;
    ws.send('not json at all');
    ws.send(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`);
    ws.send(Buffer.from([0xff, 0xfe, 0x00, 0x01]));
    ws.send(JSON.stringify({ Events: [{ Type: 'DeviceCommand', Id: 'i'.repeat(100_000) }] }));
    ws.send(event('after-the-garbage'));
    await eventually('commands.length === 1', () => commands.length === 1);
    expect(commands).toEqual([{ id: 'after-the-garbage', state: 'Pending' }]);
    expect(log.lines.join('\n')).not.toContain(TOKENS.accessToken);
  });
});
