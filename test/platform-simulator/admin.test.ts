import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { normalizeCommand } from '../../src/connector/model.js';
import type { CommandView, Faults, SimCounters } from '../../src/platform-simulator/index.js';
import { admin, call, startSim } from './support.js';

describe('admin API /_sim/', () => {
  it('shows the world: devices, rooms and reservations', async () => {
    const sim = await startSim();
    const { status, body } = await admin(sim, 'GET', 'world');
    expect(status).toBe(200);
    const world = body as {
      devices: Array<{ id: string }>;
      reservations: Array<{ id: string }>;
      rooms: unknown[];
    };
    expect(world.devices.map((d) => d.id)).toEqual(sim.world.devices.map((d) => d.id));
    expect(world.reservations).toHaveLength(6);
    expect(world.rooms.length).toBeGreaterThan(0);
  });

  it('creates, reads, lists and cancels commands', async () => {
    const sim = await startSim();
    const created = await admin(sim, 'POST', 'commands', { kind: 'keys', keyCount: 2 });
    expect(created.status).toBe(201);
    const view = created.body as CommandView;
    expect(view).toMatchObject({ kind: 'keys', state: 'Pending' });
    const normal = normalizeCommand(view.wire.command);
    expect(normal.ok && normal.command.data.kind === 'keys' && normal.command.data.keys.keyCount).toBe(2);

    await admin(sim, 'POST', 'commands', { kind: 'fiscal-payload', envelope: 'bare' });
    const read = await admin(sim, 'GET', `commands/${view.id}`);
    expect((read.body as CommandView).history).toEqual(view.history);
    expect((await admin(sim, 'GET', 'commands/nope')).status).toBe(404);

    await call(sim, 'commands/update', { CommandId: view.id, State: 'Received' });
    const listed = await admin(sim, 'GET', 'commands?state=Received');
    const list = listed.body as { commands: CommandView[]; counts: Record<string, number> };
    expect(list.commands.map((c) => c.id)).toEqual([view.id]);
    expect(list.counts).toMatchObject({ Pending: 1, Received: 1, Processed: 0 });
    expect(
      ((await admin(sim, 'GET', 'commands?kind=fiscal-payload')).body as { commands: unknown[] }).commands,
    ).toHaveLength(1);

    const cancelled = await admin(sim, 'POST', `commands/${view.id}/cancel`, { notes: 'Guest left' });
    expect(cancelled.status).toBe(200);
    expect((cancelled.body as CommandView).history.at(-1)).toMatchObject({
      state: 'Cancelled',
      notes: 'Guest left',
      by: 'staff',
    });
    expect((await admin(sim, 'POST', `commands/${view.id}/cancel`)).status).toBe(409);
    expect((await admin(sim, 'POST', 'commands/nope/cancel')).status).toBe(404);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const sim = await startSim();
    const bad = await admin(sim, 'POST', 'commands', { kind: 'teleport' });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toMatch(/^kind:/);
    const wrongDevice = await admin(sim, 'POST', 'commands', {
      kind: 'keys',
      deviceId: sim.world.devices[0]?.id,
    });
    expect(wrongDevice.status).toBe(400);
    expect((await admin(sim, 'POST', 'faults', { hangs: { rate: -1 } })).status).toBe(400);
    expect((await admin(sim, 'GET', 'nothing/here')).status).toBe(404);
  });

  it('shows counters and the request log, without counting its own requests', async () => {
    const clock = new ManualClock();
    const sim = await startSim({ clock });
    await call(sim, 'devices/getAll');
    await clock.advance(1000);
    await call(sim, 'commands/getAllActive');
    await admin(sim, 'GET', 'counters');
    const counters = (await admin(sim, 'GET', 'counters')).body as SimCounters;
    expect(counters.requests.total).toBe(2);
    const log = (await admin(sim, 'GET', 'requests')).body as {
      requests: Array<{ operation: string; at: number }>;
    };
    expect(log.requests.map((r) => r.operation)).toEqual(['devices/getAll', 'commands/getAllActive']);
    const since = (await admin(sim, 'GET', `requests?since=${clock.now()}`)).body as { requests: unknown[] };
    expect(since.requests).toHaveLength(1);
  });

  it('sets, shows and clears faults', async () => {
    const sim = await startSim();
    const set = await admin(sim, 'POST', 'faults', { serverErrors: { next: 1 } });
    expect((set.body as Faults).serverErrors.next).toBe(1);
    expect((await call(sim, 'devices/getAll')).status).toBe(503);
    expect(((await admin(sim, 'GET', 'faults')).body as Faults).serverErrors.next).toBe(0);
    await admin(sim, 'POST', 'faults', { serverErrors: { rate: 1 } });
    expect(((await admin(sim, 'DELETE', 'faults')).body as Faults).serverErrors.rate).toBe(0);
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
  });

  it('starts and stops the generator, drops WebSockets, manages receipts and resets', async () => {
    const clock = new ManualClock();
    const sim = await startSim({ clock, scenario: { generator: { rate: 1, autostart: false, backlog: 2 } } });
    expect((await admin(sim, 'GET', 'generator')).body).toEqual({ running: false });
    expect((await admin(sim, 'POST', 'generator/start')).body).toEqual({ running: true });
    await clock.advance(3000);
    expect(sim.commands()).toHaveLength(5);
    expect((await admin(sim, 'POST', 'generator/stop')).body).toEqual({ running: false });
    expect((await admin(sim, 'POST', 'generator/jump')).status).toBe(404);
    expect((await admin(sim, 'POST', 'websocket/drop')).body).toEqual({ dropped: 0 });
    expect((await admin(sim, 'GET', 'websocket')).body).toEqual({ open: 0 });

    const receipt = {
      serialNumber: '99MEY123456',
      zNumber: '0001',
      documentNumber: '0002',
      dateTimeUtc: '2026-01-01T09:00:00Z',
    };
    expect((await admin(sim, 'POST', 'receipts', receipt)).status).toBe(201);
    expect(((await admin(sim, 'GET', 'receipts')).body as { receipts: unknown[] }).receipts).toHaveLength(1);
    expect((await admin(sim, 'POST', 'receipts', { ...receipt, zNumber: '1' })).status).toBe(400);

    await call(sim, 'devices/getAll');
    expect((await admin(sim, 'POST', 'reset')).body).toEqual({ reset: true });
    expect(sim.commands()).toHaveLength(2);
    expect(sim.receipts()).toEqual([]);
    expect(sim.counters().requests.total).toBe(0);
    expect(sim.generatorRunning).toBe(false);
  });
});
