import { describe, expect, it } from 'vitest';
import type { PlatformSimulator } from '../../src/platform-simulator/index.js';
import { loadFixture } from '../connector/fake-platform.js';
import { auth, call, missingKeys, startSim } from './support.js';

/**
 * The platform simulator against the platform's interface document
 * (`../shared/seed/platform-interfaces.md`) and the public docs' samples
 * (`test/fixtures/connector-docs/`): what it requires and what it returns, in strict-document
 * mode. Every test names the document's section it checks. Requests are plain `fetch` bodies and
 * answers are read as JSON, never through the agent's client or its normaliser.
 */

type Json = Record<string, unknown>;

const ENTERPRISE = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const RT = 'd117866d-78de-4459-9077-42d7ea0120e3';
const STATES = ['Pending', 'Received', 'Processing', 'Processed', 'Cancelled', 'Error'];
const window = () => ({
  StartUtc: new Date(Date.now() - 86_400_000).toISOString(),
  EndUtc: new Date(Date.now() + 60_000).toISOString(),
});

const strict = (scenario: Json = {}) => startSim({ strictDocument: true, scenario });

async function fiscalById(sim: PlatformSimulator, ids: string[], extra: Json = {}) {
  return call(sim, 'fiscalMachineCommands/getAll', {
    CommandIds: ids,
    EnterpriseIds: null,
    Limitation: { Count: 100 },
    ...extra,
  });
}

/** Every page of a by-device listing, following the cursor until it is null. */
async function walk(sim: PlatformSimulator, count: number): Promise<{ items: Json[]; pages: number[] }> {
  const items: Json[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const answer = await call(sim, 'fiscalMachineCommands/getAll', {
      DeviceIds: [RT],
      States: ['Pending'],
      UpdatedUtc: window(),
      EnterpriseIds: [ENTERPRISE],
      Limitation: cursor ? { Count: count, Cursor: cursor } : { Count: count },
    });
    expect(answer.status).toBe(200);
    const page = answer.body.Commands as Json[];
    pages.push(page.length);
    items.push(...page);
    cursor = answer.body.Cursor as string | null;
    if (cursor === null) return { items, pages };
  }
  throw new Error('the cursor never became null');
}

describe('Part B › Endpoints: what the simulator requires of every request', () => {
  it('Part B › Endpoints: ClientToken, AccessToken and Client are required in every body', async () => {
    const sim = await strict();
    const { Client: _client, ...tokens } = auth(sim);
    const noClient = await call(sim, 'commands/getAllActive', tokens, { raw: true });
    expect(noClient.status).toBe(400);
    const { AccessToken: _access, ...noAccess } = auth(sim);
    // Status codes of the Connector API are "not shown" in the document; the public docs answer
    // bad or missing tokens with 401 (MewsSystems/open-api-docs:connector-api/guidelines/responses.md).
    expect((await call(sim, 'commands/getAllActive', noAccess, { raw: true })).status).toBe(401);
  });

  it('Part B › Endpoints: fields the operation does not define are ignored, not refused (the public docs add LanguageCode and CultureCode to every operation)', async () => {
    const sim = await strict();
    const answer = await fiscalById(sim, ['x'], { LanguageCode: 'it-IT', CultureCode: 'it-IT' });
    expect(answer.status).toBe(200);
  });
});

describe('Part B › Endpoints › fiscalMachineCommands/getAll parameter sets: what the simulator requires', () => {
  it('Part B › Endpoints › fiscalMachineCommands/getAll parameter sets: EnterpriseIds is required in both sets — 400 when missing', async () => {
    const sim = await strict();
    const byIds = await call(sim, 'fiscalMachineCommands/getAll', {
      CommandIds: ['x'],
      Limitation: { Count: 10 },
    });
    expect(byIds.status).toBe(400);
    expect(byIds.body.Message).toMatch(/^Invalid EnterpriseIds/);
    const byDevices = await call(sim, 'fiscalMachineCommands/getAll', {
      DeviceIds: [RT],
      States: ['Pending'],
      UpdatedUtc: window(),
      Limitation: { Count: 10 },
    });
    expect(byDevices.status).toBe(400);
    expect(byDevices.body.Message).toMatch(/^Invalid EnterpriseIds/);
  });

  it('Part B › Endpoints › fiscalMachineCommands/getAll parameter sets: EnterpriseIds may be an array or null (every enterprise of the token)', async () => {
    const sim = await strict();
    const command = sim.createFiscalData({ deviceId: RT });
    const asNull = await fiscalById(sim, [command.id]);
    const asArray = await fiscalById(sim, [command.id], { EnterpriseIds: [ENTERPRISE] });
    const elsewhere = await fiscalById(sim, [command.id], { EnterpriseIds: [] });
    expect([asNull.status, asArray.status, elsewhere.status]).toEqual([200, 200, 200]);
    expect((asNull.body.Commands as Json[]).map((c) => c.Id)).toEqual([command.id]);
    expect((asArray.body.Commands as Json[]).map((c) => c.Id)).toEqual([command.id]);
    expect(elsewhere.body.Commands).toEqual([]);
  });

  it('Part B › Endpoints › fiscalMachineCommands/getAll parameter sets: the two sets are mutually exclusive, and each set’s required fields are required', async () => {
    const sim = await strict();
    const cases: Json[] = [
      {
        CommandIds: ['x'],
        DeviceIds: [RT],
        States: ['Pending'],
        UpdatedUtc: window(),
        EnterpriseIds: null,
        Limitation: { Count: 1 },
      },
      { EnterpriseIds: null, Limitation: { Count: 1 } },
      { DeviceIds: [RT], UpdatedUtc: window(), EnterpriseIds: null, Limitation: { Count: 1 } },
      { DeviceIds: [RT], States: ['Pending'], EnterpriseIds: null, Limitation: { Count: 1 } },
      { CommandIds: ['x'], EnterpriseIds: null },
    ];
    for (const body of cases) {
      const answer = await call(sim, 'fiscalMachineCommands/getAll', body);
      expect(answer.status, JSON.stringify(Object.keys(body))).toBe(400);
    }
  });

  it('Part B › Limits: DeviceIds max 100, CommandIds and EnterpriseIds max 1000, UpdatedUtc max 3 months', async () => {
    const sim = await strict();
    const many = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);
    const base = { States: ['Pending'], EnterpriseIds: null, Limitation: { Count: 1 } };
    const refused = [
      { ...base, DeviceIds: many(101), UpdatedUtc: window() },
      { CommandIds: many(1001), EnterpriseIds: null, Limitation: { Count: 1 } },
      { CommandIds: ['x'], EnterpriseIds: many(1001), Limitation: { Count: 1 } },
      {
        ...base,
        DeviceIds: [RT],
        UpdatedUtc: { StartUtc: '2026-01-01T00:00:00Z', EndUtc: '2026-04-02T00:00:00Z' },
      },
    ];
    for (const body of refused)
      expect((await call(sim, 'fiscalMachineCommands/getAll', body)).status).toBe(400);
    const limits = [
      {
        ...base,
        DeviceIds: many(100),
        UpdatedUtc: { StartUtc: '2026-01-01T00:00:00Z', EndUtc: '2026-04-01T00:00:00Z' },
      },
      { CommandIds: many(1000), EnterpriseIds: null, Limitation: { Count: 1000 } },
    ];
    for (const body of limits)
      expect((await call(sim, 'fiscalMachineCommands/getAll', body)).status).toBe(200);
  });
});

describe('Part B › Resources › Fiscal machine command data: what the simulator returns', () => {
  async function sixCommands(sim: PlatformSimulator): Promise<Json[]> {
    const ids = [
      ...[1, 2, 3].map(() => sim.createFiscalData({ deviceId: RT }).id),
      ...[1, 2, 3].map(() => sim.createFiscalPayload({ deviceId: RT }).id),
    ];
    const answer = await fiscalById(sim, ids);
    expect(answer.status).toBe(200);
    return answer.body.Commands as Json[];
  }

  it('Part B › Resources › Fiscal machine command data: every required field, with its type', async () => {
    const sim = await strict();
    for (const c of await sixCommands(sim)) {
      for (const field of ['Id', 'CreatedUtc', 'FiscalMachineId', 'ApiUrl', 'FiscalMachineData'])
        expect(typeof c[field], field).toBe('string');
      expect(STATES).toContain(c.State);
      expect(() => JSON.parse(c.FiscalMachineData as string)).not.toThrow();
      const device = c.Device as Json;
      expect(typeof device.Id).toBe('string');
      expect(typeof device.Name).toBe('string');
      expect(['FiscalMachine', 'Printer']).toContain(device.Type);
      expect('Identifier' in device).toBe(true);
      expect(typeof c.Bill).toBe('object');
    }
  });

  it('Part B › Resources › Fiscal machine command data: the sample’s fields are all there (test/fixtures/connector-docs)', async () => {
    const sim = await strict();
    const [sample] = loadFixture('fiscalMachineCommands-getAll.response.json').Commands as Json[];
    for (const c of await sixCommands(sim)) {
      // The one field the document lets be absent in strict mode: CommandData.Discriminator.
      const missing = missingKeys(sample, c).filter((p) => p !== 'CommandData.Discriminator');
      expect(missing).toEqual([]);
    }
  });

  it('Part B › Resources › Fiscal machine command data (Device): both FiscalMachine and Printer occur for one fiscal machine', async () => {
    const sim = await strict();
    const types = new Set((await sixCommands(sim)).map((c) => (c.Device as Json).Type));
    expect(types).toEqual(new Set(['FiscalMachine', 'Printer']));
  });

  it('Part B › Resources › Fiscal machine command data (FiscalMachineAdditionalData): Discriminator present, absent and null occur; exactly one object is given', async () => {
    const sim = await strict();
    const seen = new Set<string>();
    for (const c of await sixCommands(sim)) {
      const data = c.CommandData as Json;
      seen.add(!('Discriminator' in data) ? 'absent' : data.Discriminator === null ? 'null' : 'present');
      const objects = [data.ItalianFiscalMachineData, data.ItalianFiscalMachinePayload].filter((o) => o);
      expect(objects).toHaveLength(1);
      if (typeof data.Discriminator === 'string') expect(data[data.Discriminator]).toBeTruthy();
      const italian = data.ItalianFiscalMachineData as Json | null;
      if (italian) expect(typeof italian.IsRefund).toBe('boolean');
      const payload = data.ItalianFiscalMachinePayload as Json | null;
      if (payload)
        expect(Buffer.from(payload.Payload as string, 'base64').toString('base64')).toBe(payload.Payload);
    }
    expect(seen).toEqual(new Set(['present', 'absent', 'null']));
  });

  it('Part B › Resources › Bill (version 2025-06-23): every required field, with the documented values', async () => {
    const sim = await strict();
    for (const c of await sixCommands(sim)) {
      const bill = c.Bill as Json;
      for (const field of ['Id', 'EnterpriseId', 'AccountId', 'CreatedUtc', 'UpdatedUtc', 'CorrectionState'])
        expect(typeof bill[field], field).toBe('string');
      expect(['Customer', 'Company']).toContain(bill.AccountType);
      expect(['Open', 'Closed']).toContain(bill.State);
    }
  });
});

describe('Part B › Endpoints (Cursor semantics) and › Limits (Count): how the simulator pages', () => {
  it('Part B › Endpoints: Cursor is the id of the last returned command; a capped Count gives short pages that are not the end', async () => {
    const sim = await strict();
    const ids = Array.from({ length: 16 }, () => sim.createFiscalData({ deviceId: RT }).id);
    const { items, pages } = await walk(sim, 100);
    const cap = sim.rules.maxCount;
    expect(cap).toBeLessThan(16);
    expect(pages.every((n) => n <= cap)).toBe(true);
    expect(pages.at(-1)).toBe(0);
    expect(new Set(items.map((c) => c.Id))).toEqual(new Set(ids));
    expect(items).toHaveLength(16);
  });

  it('Part B › Endpoints: the Cursor of a page with items is its last item’s id, even on the last page; null only with no items', async () => {
    const sim = await strict();
    const command = sim.createFiscalData({ deviceId: RT });
    const one = await fiscalById(sim, [command.id]);
    expect(one.body.Cursor).toBe(command.id);
    const none = await fiscalById(sim, ['unknown']);
    expect(none.body).toEqual({ Commands: [], Cursor: null });
  });
});

describe('Part B › States and transitions: commands/update in the simulator', () => {
  it('Part B › States and transitions: any command state moves to the state given, and every move is in the history', async () => {
    const sim = await strict();
    const { id } = sim.createKeys();
    const moves = ['Received', 'Processing', 'Processed', 'Processing', 'Pending', 'Error', 'Cancelled'];
    for (const State of moves) {
      const answer = await call(sim, 'commands/update', { CommandId: id, State });
      expect(answer.status, State).toBe(200);
      expect(answer.body).toEqual({});
    }
    expect(sim.history(id).map((h) => [h.state, h.by])).toEqual([
      ['Pending', 'platform'],
      ...moves.map((s) => [s, 'agent']),
    ]);
    expect(sim.command(id)?.state).toBe('Cancelled');
  });

  it('Part B › States and transitions: Progress is stored only with Processing, Notes only with Processed, Cancelled or Error', async () => {
    const sim = await strict();
    const { id } = sim.createKeys();
    await call(sim, 'commands/update', { CommandId: id, State: 'Received', Progress: 0.2, Notes: 'no' });
    await call(sim, 'commands/update', { CommandId: id, State: 'Processing', Progress: 0.5, Notes: 'no' });
    await call(sim, 'commands/update', { CommandId: id, State: 'Processed', Progress: 1, Notes: 'Two keys' });
    const [, received, processing, processed] = sim.history(id);
    expect(received).not.toHaveProperty('progress');
    expect(received).not.toHaveProperty('notes');
    expect(processing).toMatchObject({ state: 'Processing', progress: 0.5 });
    expect(processing).not.toHaveProperty('notes');
    expect(processed).toMatchObject({ state: 'Processed', notes: 'Two keys' });
    expect(processed).not.toHaveProperty('progress');
  });

  it('Part B › Endpoints: commands/update requires CommandId and a Command state', async () => {
    const sim = await strict();
    const { id } = sim.createKeys();
    expect((await call(sim, 'commands/update', { State: 'Received' })).status).toBe(400);
    expect((await call(sim, 'commands/update', { CommandId: id, State: 'Paused' })).status).toBe(400);
    expect((await call(sim, 'commands/update', { CommandId: id })).status).toBe(400);
  });

  it('non-strict switch (updates: forward): a move backwards or out of a terminal state is refused, and not recorded', async () => {
    const sim = await startSim({ document: { updates: 'forward' } });
    const { id } = sim.createKeys();
    await call(sim, 'commands/update', { CommandId: id, State: 'Processed' });
    expect((await call(sim, 'commands/update', { CommandId: id, State: 'Processing' })).status).toBe(400);
    expect(sim.history(id).map((h) => h.state)).toEqual(['Pending', 'Processed']);
  });
});

describe('Part B › Endpoints: commands/getAllByIds and commands/addKeyCutter in the simulator', () => {
  it('Part B › Endpoints: commands/getAllByIds returns the active commands among the ids', async () => {
    const sim = await strict({ platform: { legacyFiscalInCommands: false } });
    const active = sim.createKeys();
    const done = sim.createKeys();
    await call(sim, 'commands/update', { CommandId: done.id, State: 'Processed' });
    const answer = await call(sim, 'commands/getAllByIds', { CommandIds: [active.id, done.id] });
    expect((answer.body.Commands as Json[]).map((c) => c.Id)).toEqual([active.id]);
  });

  it('Part B › States and transitions: commands/addKeyCutter creates a command and returns its CommandId; EnterpriseId is required with a portfolio token', async () => {
    const sim = await strict({ platform: { portfolio: true } });
    const reservation = sim.world.reservations[0]?.id as string;
    const cutter = sim.world.devices.find((d) => d.type === 'KeyCutter')?.id as string;
    const body = { KeyCutterId: cutter, ReservationId: reservation, KeyCount: 2 };
    const refused = await call(sim, 'commands/addKeyCutter', body);
    expect(refused.status).toBe(400);
    expect(refused.body.Message).toMatch(/^Invalid EnterpriseId/);
    const created = await call(sim, 'commands/addKeyCutter', { ...body, EnterpriseId: ENTERPRISE });
    expect(created.status).toBe(200);
    expect(typeof created.body.CommandId).toBe('string');
    expect(sim.command(created.body.CommandId as string)?.state).toBe('Pending');
  });

  it('Part B › Authentication: with a token that is not a portfolio token, EnterpriseId is ignored', async () => {
    const sim = await strict();
    const reservation = sim.world.reservations[0]?.id as string;
    const cutter = sim.world.devices.find((d) => d.type === 'KeyCutter')?.id as string;
    const body = { KeyCutterId: cutter, ReservationId: reservation, KeyCount: 1 };
    expect((await call(sim, 'commands/addKeyCutter', body)).status).toBe(200);
    expect((await call(sim, 'commands/addKeyCutter', { ...body, EnterpriseId: 'any' })).status).toBe(200);
  });
});

describe('strict-document mode: the switch', () => {
  it('turns every document rule on; without it the historical behaviour stays', async () => {
    const on = await strict();
    expect(on.rules).toMatchObject({
      requireEnterpriseIds: true,
      discriminator: 'mixed',
      fiscalDeviceType: 'mixed',
      cursor: 'last-item',
      updates: 'any',
    });
    const off = await startSim();
    expect(off.rules).toMatchObject({
      requireEnterpriseIds: false,
      updates: 'forward',
      discriminator: 'present',
    });
    const fromScenario = await startSim({
      scenario: { platform: { strictDocument: true, document: { maxCount: 3 } } },
    });
    expect(fromScenario.rules).toMatchObject({ requireEnterpriseIds: true, maxCount: 3 });
  });

  it('fiscalDeviceType Printer lists the fiscal machine as a Printer in devices/getAll too', async () => {
    const sim = await startSim({ document: { fiscalDeviceType: 'Printer' } });
    const devices = (await call(sim, 'devices/getAll')).body.Devices as Json[];
    expect(devices.find((d) => d.Id === RT)?.Type).toBe('Printer');
  });
});
