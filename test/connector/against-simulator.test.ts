import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConnectorClient, createConnectorClient } from '../../src/connector/client.js';
import type { NormalizedItem } from '../../src/connector/model.js';
import { ConnectorSocket } from '../../src/connector/websocket.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { eventually } from '../helpers/eventually.js';

/** The client and the simulator agree on the contract: every operation, end to end over HTTP. */
describe('connector client against the platform simulator', () => {
  let sim: PlatformSimulator;
  let client: ConnectorClient;
  const fiscalId = 'c0000000-0000-4000-8000-000000000001';
  const keysId = 'c0000000-0000-4000-8000-000000000002';

  beforeAll(async () => {
    sim = await startPlatformSimulator({
      scenario: {
        devices: [
          {
            id: fiscalId,
            type: 'FiscalMachine',
            name: 'RT',
            apiUrl: 'http://127.0.0.1:1',
            serialNumber: '99MEY000001',
          },
          { id: keysId, type: 'KeyCutter', name: 'Encoder', keyCutterId: '7' },
        ],
        reservations: { generate: 3 },
      },
    });
    client = createConnectorClient({ baseUrl: sim.url, ...sim.tokens, client: 'frontdesk-agent 0.1.0' });
  });
  afterAll(async () => {
    await sim.close();
  });

  const ok = (items: NormalizedItem[]) =>
    items.filter((i) => i.ok).map((i) => (i.ok ? i.command : undefined));

  it('devices/getAll lists the devices', async () => {
    const devices = await client.devices();
    expect(devices.map((d) => [d.Id, d.Type])).toEqual(
      expect.arrayContaining([
        [fiscalId, 'FiscalMachine'],
        [keysId, 'KeyCutter'],
      ]),
    );
  });

  it('commands/addKeyCutter, getAllActive, getAllByIds and update take a command through its life', async () => {
    const reservation = sim.world.reservations[0];
    if (!reservation) throw new Error('no reservation');
    const id = await client.addKeyCutter({ KeyCutterId: keysId, ReservationId: reservation.id, KeyCount: 2 });
    const active = ok(await client.activeCommands());
    expect(active.find((c) => c?.id === id)?.data.kind).toBe('keys');
    const [byId] = ok(await client.commandsByIds([id]));
    expect(byId?.data).toMatchObject({ kind: 'keys', keys: { keyCount: 2, keyCutterId: '7' } });
    await client.updateCommand({ CommandId: id, State: 'Received' });
    await client.updateCommand({ CommandId: id, State: 'Processing', Progress: 0.5 });
    await client.updateCommand({ CommandId: id, State: 'Processed', Notes: '2 keys for room 101' });
    expect(sim.history(id).map((h) => h.state)).toEqual(['Pending', 'Received', 'Processing', 'Processed']);
    expect(sim.history(id)[2]?.progress).toBe(0.5);
    expect(await client.commandsByIds([id])).toEqual([]);
    await expect(client.updateCommand({ CommandId: id, State: 'Processing' })).rejects.toMatchObject({
      code: 'PLATFORM_REJECTED',
    });
  });

  it('fiscalMachineCommands/getAll by devices and by ids, following the cursor, in both document kinds', async () => {
    const created = [
      sim.createFiscalData({ deviceId: fiscalId }),
      sim.createFiscalPayload({ deviceId: fiscalId }),
      sim.createFiscalData({ deviceId: fiscalId }),
    ];
    const now = Date.now();
    const seen: string[] = [];
    for await (const page of client.fiscalCommands(
      {
        DeviceIds: [fiscalId],
        States: ['Pending', 'Received'],
        UpdatedUtc: {
          StartUtc: new Date(now - 3600_000).toISOString(),
          EndUtc: new Date(now + 60_000).toISOString(),
        },
      },
      { pageSize: 2 },
    )) {
      for (const command of ok(page)) if (command) seen.push(command.id);
    }
    expect(seen).toEqual(expect.arrayContaining(created.map((c) => c.id)));
    const byIds: NormalizedItem[] = [];
    for await (const page of client.fiscalCommands({ CommandIds: created.map((c) => c.id) }))
      byIds.push(...page);
    const kinds = ok(byIds).map((c) => (c?.data.kind === 'fiscal' ? c.data.fiscal.document.type : 'other'));
    expect(kinds.sort()).toEqual(['data', 'data', 'payload']);
  });

  it('orderItems/getAll and payments/getAll give a bill whose items and payments balance', async () => {
    const view = sim.createFiscalData({ deviceId: fiscalId });
    const billId = view.billId as string;
    const items = [];
    for await (const page of client.orderItems({ BillIds: [billId] })) items.push(...page);
    const payments = [];
    for await (const page of client.payments({ BillIds: [billId] })) payments.push(...page);
    const cents = (v: number | undefined) => Math.round((v ?? 0) * 100);
    const itemTotal = items.reduce((s, i) => s + cents(i.Amount.GrossValue), 0);
    const paid = payments.reduce((s, p) => s + cents(p.Amount.GrossValue), 0);
    expect(items.length).toBeGreaterThan(0);
    expect(itemTotal).toBe(-paid);
  });

  it('the WebSocket delivers DeviceCommand events for new commands', async () => {
    const socket = new ConnectorSocket({ url: sim.wsUrl, ...sim.tokens });
    const events: string[] = [];
    const connected = new Promise<void>((resolve) => socket.onConnected(() => resolve()));
    socket.onCommand((e) => events.push(e.id));
    socket.start();
    await connected;
    const view = sim.createKeys({ deviceId: keysId });
    await eventually(`the event for ${view.id}`, () => events.includes(view.id));
    await socket.stop();
  });
});
