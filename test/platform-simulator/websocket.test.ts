import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ManualClock } from '../../src/clock.js';
import { WsMessageSchema } from '../../src/connector/wire.js';
import type { PlatformSimulator } from '../../src/platform-simulator/index.js';
import { eventually } from '../helpers/eventually.js';
import { call, startSim } from './support.js';

interface Client {
  ws: WebSocket;
  messages: Array<{ Events: Array<Record<string, unknown>> }>;
  closed: () => boolean;
}

function cookie(sim: PlatformSimulator): string {
  return `ClientToken=${sim.tokens.clientToken}; AccessToken=${sim.tokens.accessToken}`;
}

/** Connects; resolves when open, rejects with the refusal (`Unexpected server response: 401`). */
function connect(sim: PlatformSimulator, cookieHeader?: string, url = sim.wsUrl): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, cookieHeader === undefined ? {} : { headers: { Cookie: cookieHeader } });
    const messages: Client['messages'] = [];
    let closed = false;
    ws.on('message', (data) =>
      messages.push(WsMessageSchema.parse(JSON.parse(String(data))) as Client['messages'][number]),
    );
    ws.on('close', () => {
      closed = true;
    });
    ws.once('open', () => resolve({ ws, messages, closed: () => closed }));
    ws.once('error', reject);
  });
}

const commandEvents = (client: Client) =>
  client.messages.flatMap((m) => m.Events).filter((e) => e.Type === 'DeviceCommand');

describe('WebSocket /ws/connector', () => {
  it('refuses connections without the two token cookies', async () => {
    const sim = await startSim();
    await expect(connect(sim)).rejects.toThrow(/401/);
    await expect(connect(sim, `ClientToken=${sim.tokens.clientToken}`)).rejects.toThrow(/401/);
    await expect(connect(sim, `ClientToken=${sim.tokens.clientToken}; AccessToken=wrong`)).rejects.toThrow(
      /401/,
    );
    await expect(
      connect(sim, cookie(sim), sim.wsUrl.replace('/ws/connector', '/ws/Connector')),
    ).rejects.toThrow(/404/);
    expect(sim.counters().websocket).toMatchObject({ rejected: 3, connections: 0 });
    const ok = await connect(sim, cookie(sim));
    expect(sim.counters().websocket).toMatchObject({ connections: 1, open: 1 });
    ok.ws.close();
  });

  it('pushes a DeviceCommand event on every create, update and staff cancel', async () => {
    const sim = await startSim({ scenario: { platform: { otherEventRate: 0 } } });
    const client = await connect(sim, cookie(sim));
    const a = sim.createKeys();
    await eventually('creation event', () => commandEvents(client).length === 1);
    expect(commandEvents(client)[0]).toEqual({ Type: 'DeviceCommand', Id: a.id, State: 'Pending' });
    await call(sim, 'commands/update', { CommandId: a.id, State: 'Received' });
    await call(sim, 'commands/update', { CommandId: a.id, State: 'Processing', Progress: 0.2 });
    sim.cancelAsStaff(a.id);
    const added = await call(sim, 'commands/addKeyCutter', {
      KeyCutterId: a.deviceId,
      ReservationId: sim.world.reservations[0]?.id,
      KeyCount: 1,
    });
    await eventually('five events', () => commandEvents(client).length === 5);
    expect(commandEvents(client).map((e) => [e.Id, e.State])).toEqual([
      [a.id, 'Pending'],
      [a.id, 'Received'],
      [a.id, 'Processing'],
      [a.id, 'Cancelled'],
      [added.body.CommandId, 'Pending'],
    ]);
    // A refused update pushes nothing.
    await call(sim, 'commands/update', { CommandId: a.id, State: 'Processed' });
    sim.createPrint();
    await eventually('sixth event', () => commandEvents(client).length === 6);
    expect(commandEvents(client)[5]?.State).toBe('Pending');
    client.ws.close();
  });

  it('mixes in events of other types that clients must ignore', async () => {
    const sim = await startSim({ scenario: { platform: { otherEventRate: 1 } } });
    const client = await connect(sim, cookie(sim));
    sim.createPrint();
    sim.createKeys();
    await eventually('two messages', () => client.messages.length === 2);
    for (const message of client.messages) {
      expect(message.Events[0]?.Type).toBe('DeviceCommand');
      expect(['Reservation', 'Resource', 'PriceUpdate']).toContain(message.Events[1]?.Type);
    }
    client.ws.close();
  });

  it('drops every socket on demand, and every N seconds by fault', async () => {
    const clock = new ManualClock();
    const sim = await startSim({ clock });
    const first = await connect(sim, cookie(sim));
    const second = await connect(sim, cookie(sim));
    expect(sim.openWebSockets).toBe(2);
    expect(sim.dropWebSockets()).toBe(2);
    await eventually('both closed', () => first.closed() && second.closed());

    sim.setFaults({ websocket: { dropEverySeconds: 5 } });
    const third = await connect(sim, cookie(sim));
    await clock.advance(4999);
    expect(third.closed()).toBe(false);
    await clock.advance(1);
    await eventually('periodic drop', () => third.closed());
    const fourth = await connect(sim, cookie(sim));
    await clock.advance(5000);
    await eventually('second periodic drop', () => fourth.closed());
    expect(sim.counters().faults['websocket-drop']).toBe(3);

    sim.clearFaults();
    const fifth = await connect(sim, cookie(sim));
    await clock.advance(60_000);
    expect(fifth.closed()).toBe(false);
    fifth.ws.close();
  });

  it('refuses every connection with 503 while the refuse fault is on', async () => {
    const sim = await startSim();
    sim.setFaults({ websocket: { refuse: true } });
    await expect(connect(sim, cookie(sim))).rejects.toThrow(/503/);
    expect(sim.counters().faults['websocket-refused']).toBe(1);
    sim.setFaults({ websocket: { refuse: false } });
    const client = await connect(sim, cookie(sim));
    client.ws.close();
  });
});
