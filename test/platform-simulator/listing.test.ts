import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { normalizeCommand, normalizeFiscalMachineCommand } from '../../src/connector/model.js';
import {
  CommandListResponseSchema,
  FiscalCommandListResponseSchema,
  OrderItemsResponseSchema,
} from '../../src/connector/wire.js';
import { call, startSim } from './support.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('newest first and the cursor', () => {
  it('pages fiscalMachineCommands/getAll newest first; Cursor is the last id, null on the last page', async () => {
    const clock = new ManualClock();
    const sim = await startSim({ clock });
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      created.push(sim.createFiscalData().id);
      await clock.advance(1000);
    }
    const newestFirst = [...created].reverse();
    const device = sim.world.devices.find((d) => d.type === 'FiscalMachine')?.id as string;
    const filter = {
      DeviceIds: [device],
      States: ['Pending'],
      UpdatedUtc: { StartUtc: iso(clock.now() - 86_400_000), EndUtc: iso(clock.now()) },
    };
    const seen: string[] = [];
    const cursors: Array<string | null> = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const answer = await call(sim, 'fiscalMachineCommands/getAll', {
        ...filter,
        Limitation: cursor ? { Count: 3, Cursor: cursor } : { Count: 3 },
      });
      expect(answer.status).toBe(200);
      const body = FiscalCommandListResponseSchema.parse(answer.body);
      const ids = body.Commands.map((c) => (c as { Id: string }).Id);
      seen.push(...ids);
      cursors.push(answer.body.Cursor as string | null);
      if (answer.body.Cursor === null) break;
      cursor = answer.body.Cursor as string;
    }
    expect(seen).toEqual(newestFirst);
    expect(cursors).toEqual([newestFirst[2], newestFirst[5], null]);
  });

  it('returns a null Cursor when the page holds exactly the remaining items', async () => {
    const sim = await startSim();
    const ids = [sim.createFiscalData().id, sim.createFiscalPayload().id];
    const answer = await call(sim, 'fiscalMachineCommands/getAll', {
      CommandIds: ids,
      Limitation: { Count: 2 },
    });
    expect((answer.body.Commands as unknown[]).length).toBe(2);
    expect(answer.body.Cursor).toBeNull();
  });

  it('refuses an unknown cursor with 400', async () => {
    const sim = await startSim();
    const answer = await call(sim, 'fiscalMachineCommands/getAll', {
      CommandIds: ['a'],
      Limitation: { Count: 2, Cursor: 'no-such-id' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.Message).toMatch(/^Invalid Cursor/);
  });

  it('pages orderItems/getAll the same way', async () => {
    const sim = await startSim();
    const bills = [sim.createFiscalData().billId, sim.createFiscalData().billId] as string[];
    const all: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const answer = await call(sim, 'orderItems/getAll', {
        BillIds: bills,
        Limitation: cursor ? { Count: 2, Cursor: cursor } : { Count: 2 },
      });
      const body = OrderItemsResponseSchema.parse(answer.body);
      all.push(...body.OrderItems.map((i) => i.Id));
      if (!body.Cursor) break;
      cursor = body.Cursor;
    }
    const whole = OrderItemsResponseSchema.parse(
      (await call(sim, 'orderItems/getAll', { BillIds: bills, Limitation: { Count: 1000 } })).body,
    );
    expect(all).toEqual(whole.OrderItems.map((i) => i.Id));
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('filters', () => {
  it('treats UpdatedUtc as half-open: start inclusive, end exclusive', async () => {
    const clock = new ManualClock();
    const sim = await startSim({ clock });
    const command = sim.createFiscalData();
    await clock.advance(5000);
    const updatedAt = clock.now();
    expect((await call(sim, 'commands/update', { CommandId: command.id, State: 'Received' })).status).toBe(
      200,
    );
    await clock.advance(5000);
    const query = async (start: number, end: number) => {
      const answer = await call(sim, 'fiscalMachineCommands/getAll', {
        DeviceIds: [command.deviceId],
        States: ['Received'],
        UpdatedUtc: { StartUtc: iso(start), EndUtc: iso(end) },
        Limitation: { Count: 10 },
      });
      return (answer.body.Commands as Array<{ Id: string }>).map((c) => c.Id);
    };
    expect(await query(updatedAt, updatedAt + 1)).toEqual([command.id]);
    expect(await query(updatedAt - 1000, updatedAt)).toEqual([]);
    expect(await query(updatedAt + 1, updatedAt + 60_000)).toEqual([]);
  });

  it('filters fiscal commands by States and DeviceIds, and never lists other kinds there', async () => {
    const sim = await startSim();
    const a = sim.createFiscalData();
    const b = sim.createFiscalPayload();
    sim.createKeys();
    await call(sim, 'commands/update', { CommandId: b.id, State: 'Received' });
    const answer = await call(sim, 'fiscalMachineCommands/getAll', {
      DeviceIds: [a.deviceId],
      States: ['Pending'],
      UpdatedUtc: { StartUtc: '2000-01-01T00:00:00Z', EndUtc: '2000-02-01T00:00:00Z' },
      Limitation: { Count: 10 },
    });
    expect(answer.body.Commands).toEqual([]);
    const now = Date.now();
    const pending = await call(sim, 'fiscalMachineCommands/getAll', {
      DeviceIds: [a.deviceId, sim.world.devices.find((d) => d.type === 'KeyCutter')?.id],
      States: ['Pending', 'Processing'],
      UpdatedUtc: { StartUtc: iso(now - 3_600_000), EndUtc: iso(now + 3_600_000) },
      Limitation: { Count: 10 },
    });
    expect((pending.body.Commands as Array<{ Id: string }>).map((c) => c.Id)).toEqual([a.id]);
  });

  it('commands/getAllActive returns Pending and Received only', async () => {
    const sim = await startSim();
    const ids = Array.from({ length: 6 }, () => sim.createKeys().id);
    const moves: Array<[number, string[]]> = [
      [1, ['Received']],
      [2, ['Received', 'Processing']],
      [3, ['Processed']],
      [4, ['Error']],
      [5, ['Received', 'Cancelled']],
    ];
    for (const [index, states] of moves) {
      for (const state of states) await call(sim, 'commands/update', { CommandId: ids[index], State: state });
    }
    const answer = await call(sim, 'commands/getAllActive');
    const body = CommandListResponseSchema.parse(answer.body);
    const got = body.Commands.map((c) => c as { Id: string; State: string });
    expect(got.map((c) => c.Id).sort()).toEqual([ids[0], ids[1]].sort());
    expect(new Set(got.map((c) => c.State))).toEqual(new Set(['Pending', 'Received']));
  });

  it('commands/getAllByIds returns only non-terminal commands, ignores unknown ids', async () => {
    const sim = await startSim();
    const ids = Array.from({ length: 4 }, () => sim.createPrint().id);
    await call(sim, 'commands/update', { CommandId: ids[1], State: 'Processing' });
    await call(sim, 'commands/update', { CommandId: ids[2], State: 'Processed' });
    sim.cancelAsStaff(ids[3] as string);
    const answer = await call(sim, 'commands/getAllByIds', { CommandIds: [...ids, 'unknown-id'] });
    expect(answer.status).toBe(200);
    const got = (answer.body.Commands as Array<{ Id: string }>).map((c) => c.Id);
    expect(got.sort()).toEqual([ids[0], ids[1]].sort());
    for (const item of answer.body.Commands as unknown[]) expect(normalizeCommand(item).ok).toBe(true);
  });

  it('shows fiscal commands in commands/* in the legacy shape, unless legacyFiscalInCommands is off', async () => {
    const on = await startSim();
    const fiscal = on.createFiscalData();
    const payload = on.createFiscalPayload();
    const legacy = await call(on, 'commands/getAllByIds', { CommandIds: [fiscal.id, payload.id] });
    const items = (legacy.body.Commands as unknown[]).map(normalizeCommand);
    expect(items.map((i) => i.ok && i.command.data.kind)).toEqual(['fiscal', 'fiscal']);
    const flat = await call(on, 'fiscalMachineCommands/getAll', {
      CommandIds: [fiscal.id, payload.id],
      Limitation: { Count: 10 },
    });
    const flatItems = (flat.body.Commands as unknown[]).map(normalizeFiscalMachineCommand);
    // The two shapes normalise to the same document.
    for (const [i, item] of flatItems.entries()) {
      const other = items[i];
      if (
        !item.ok ||
        !other?.ok ||
        item.command.data.kind !== 'fiscal' ||
        other.command.data.kind !== 'fiscal'
      ) {
        throw new Error('expected fiscal commands');
      }
      expect(item.command.data.fiscal.document).toEqual(other.command.data.fiscal.document);
      expect(item.command.data.fiscal.bill.id).toEqual(other.command.data.fiscal.bill.id);
    }

    const off = await startSim({ legacyFiscalInCommands: false });
    const hidden = off.createFiscalData();
    const keys = off.createKeys();
    const active = await call(off, 'commands/getAllActive');
    expect((active.body.Commands as Array<{ Id: string }>).map((c) => c.Id)).toEqual([keys.id]);
    const byIds = await call(off, 'commands/getAllByIds', { CommandIds: [hidden.id] });
    expect(byIds.body.Commands).toEqual([]);
  });
});
