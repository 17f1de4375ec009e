import { describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/connector/wire.js';
import { auth, call, startSim } from './support.js';

const OPERATIONS = [
  'fiscalMachineCommands/getAll',
  'commands/getAllActive',
  'commands/getAllByIds',
  'commands/addKeyCutter',
  'commands/update',
  'devices/getAll',
  'orderItems/getAll',
  'payments/getAll',
];

describe('Connector API transport rules', () => {
  it('answers 404 to any other spelling of a path, including a trailing slash', async () => {
    const sim = await startSim();
    for (const path of [
      'fiscalmachinecommands/getAll',
      'FiscalMachineCommands/GetAll',
      'fiscalMachineCommands/getAll/',
      'commands/getallactive',
      'commands/getAllActive/',
      'commands/nothing',
    ]) {
      const answer = await call(sim, path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
      expect(ErrorBodySchema.safeParse(answer.body).success).toBe(true);
    }
    const exact = await call(sim, 'commands/getAllActive');
    expect(exact.status).toBe(200);
  });

  it('accepts POST only, with a JSON body', async () => {
    const sim = await startSim();
    const get = await fetch(`${sim.url}/api/connector/v1/devices/getAll`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.headers.get('request-id')).toBeTruthy();

    const text = await fetch(`${sim.url}/api/connector/v1/devices/getAll`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify(auth(sim)),
    });
    expect(text.status).toBe(400);
    expect(((await text.json()) as { Message: string }).Message).toMatch(/^Invalid Content-Type/);

    const broken = await fetch(`${sim.url}/api/connector/v1/devices/getAll`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: '{"ClientToken": ',
    });
    expect(broken.status).toBe(400);
  });

  it('refuses wrong or missing tokens with 401 {Message, RequestId} and never echoes a token', async () => {
    const sim = await startSim({
      clientToken: 'CLIENT-TOKEN-SECRET-1',
      accessToken: 'ACCESS-TOKEN-SECRET-2',
    });
    for (const body of [
      {},
      { ClientToken: 'CLIENT-TOKEN-SECRET-1', Client: 'x 1' },
      { ClientToken: 'CLIENT-TOKEN-SECRET-1', AccessToken: 'wrong-token-value', Client: 'x 1' },
    ]) {
      const answer = await call(sim, 'commands/getAllActive', body, { raw: true });
      expect(answer.status).toBe(401);
      expect(answer.body.RequestId).toBe(answer.headers.get('request-id'));
      expect(typeof answer.body.Message).toBe('string');
      expect(JSON.stringify(answer.body)).not.toMatch(/SECRET|wrong-token-value/);
    }
  });

  it('puts a unique Request-Id header on every answer of every operation', async () => {
    const sim = await startSim();
    const ids = new Set<string>();
    for (const op of OPERATIONS) {
      const answer = await call(sim, op, {});
      const id = answer.headers.get('request-id');
      expect(id, op).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(id as string);
    }
    expect(ids.size).toBe(OPERATIONS.length);
  });

  it('requires Client', async () => {
    const sim = await startSim();
    const { Client: _c, ...tokens } = auth(sim);
    const answer = await call(sim, 'devices/getAll', tokens, { raw: true });
    expect(answer.status).toBe(400);
    expect(answer.body.Message).toMatch(/^Invalid Client/);
  });
});

describe('request validation with the documented limits', () => {
  const window = { StartUtc: '2026-01-01T00:00:00Z', EndUtc: '2026-01-08T00:00:00Z' };
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);
  const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
    [
      'Count 0',
      'fiscalMachineCommands/getAll',
      { CommandIds: ['a'], Limitation: { Count: 0 } },
      /^Invalid Limitation/,
    ],
    [
      'Count 1001',
      'fiscalMachineCommands/getAll',
      { CommandIds: ['a'], Limitation: { Count: 1001 } },
      /^Invalid Limitation/,
    ],
    ['no Limitation', 'fiscalMachineCommands/getAll', { CommandIds: ['a'] }, /^Invalid Limitation/],
    [
      '1001 CommandIds',
      'fiscalMachineCommands/getAll',
      { CommandIds: ids(1001), Limitation: { Count: 10 } },
      /^Invalid CommandIds/,
    ],
    [
      '0 CommandIds',
      'fiscalMachineCommands/getAll',
      { CommandIds: [], Limitation: { Count: 10 } },
      /^Invalid CommandIds/,
    ],
    [
      '101 DeviceIds',
      'fiscalMachineCommands/getAll',
      { DeviceIds: ids(101), States: ['Pending'], UpdatedUtc: window, Limitation: { Count: 10 } },
      /^Invalid DeviceIds/,
    ],
    [
      'UpdatedUtc over 3 months',
      'fiscalMachineCommands/getAll',
      {
        DeviceIds: ['d'],
        States: ['Pending'],
        UpdatedUtc: { StartUtc: '2026-01-01T00:00:00Z', EndUtc: '2026-04-02T00:00:00Z' },
        Limitation: { Count: 10 },
      },
      /^Invalid UpdatedUtc/,
    ],
    [
      'both filter sets',
      'fiscalMachineCommands/getAll',
      {
        CommandIds: ['a'],
        DeviceIds: ['d'],
        States: ['Pending'],
        UpdatedUtc: window,
        Limitation: { Count: 10 },
      },
      /^Invalid CommandIds/,
    ],
    ['no filter set', 'fiscalMachineCommands/getAll', { Limitation: { Count: 10 } }, /^Invalid CommandIds/],
    [
      'device filter without States',
      'fiscalMachineCommands/getAll',
      { DeviceIds: ['d'], UpdatedUtc: window, Limitation: { Count: 10 } },
      /^Invalid States/,
    ],
    [
      'unknown enterprise',
      'fiscalMachineCommands/getAll',
      { CommandIds: ['a'], EnterpriseIds: ['nope'], Limitation: { Count: 10 } },
      /^Invalid EnterpriseIds/,
    ],
    ['getAllByIds without ids', 'commands/getAllByIds', {}, /^Invalid CommandIds/],
    ['getAllByIds 1001 ids', 'commands/getAllByIds', { CommandIds: ids(1001) }, /^Invalid CommandIds/],
    ['update with a bad state', 'commands/update', { CommandId: 'x', State: 'Done' }, /^Invalid State/],
    [
      'update with negative progress',
      'commands/update',
      { CommandId: 'x', State: 'Processing', Progress: -1 },
      /^Invalid Progress/,
    ],
    [
      'update of an unknown command',
      'commands/update',
      { CommandId: 'nope', State: 'Received' },
      /^Invalid CommandId/,
    ],
    ['orderItems without filter', 'orderItems/getAll', { Limitation: { Count: 10 } }, /^Invalid BillIds/],
    ['payments without Limitation', 'payments/getAll', { BillIds: ['b'] }, /^Invalid Limitation/],
    [
      'addKeyCutter without KeyCount',
      'commands/addKeyCutter',
      { KeyCutterId: 'k', ReservationId: 'r' },
      /^Invalid KeyCount/,
    ],
  ];

  it.each(cases)('%s → 400', async (_name, op, body, message) => {
    const sim = await startSim();
    const answer = await call(sim, op, body);
    expect(answer.status).toBe(400);
    expect(answer.body.Message).toMatch(message);
    expect(answer.body.RequestId).toBe(answer.headers.get('request-id'));
  });

  it('accepts the limits themselves (1000 ids, Count 1000, exactly 3 months)', async () => {
    const sim = await startSim();
    const byIds = await call(sim, 'fiscalMachineCommands/getAll', {
      CommandIds: ids(1000),
      Limitation: { Count: 1000 },
    });
    expect(byIds.status).toBe(200);
    const byDevices = await call(sim, 'fiscalMachineCommands/getAll', {
      DeviceIds: ids(100),
      States: ['Pending'],
      UpdatedUtc: { StartUtc: '2026-01-01T00:00:00Z', EndUtc: '2026-04-01T00:00:00Z' },
      Limitation: { Count: 1 },
    });
    expect(byDevices.status).toBe(200);
  });
});
