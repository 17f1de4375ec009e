import { describe, expect, it } from 'vitest';
import { normalizeCommand } from '../../src/connector/model.js';
import { AddCommandResponseSchema } from '../../src/connector/wire.js';
import { call, startSim } from './support.js';

const scenario = {
  enterprises: [
    { id: 'ent-1', name: 'Hotel Uno' },
    { id: 'ent-2', name: 'Hotel Due' },
  ],
  devices: [
    {
      id: 'enc-1',
      type: 'KeyCutter' as const,
      name: 'Encoder',
      keyCutterId: 'ENC-7',
      apiUrl: 'tcp://127.0.0.1:9100',
    },
    { id: 'prn-1', type: 'Printer' as const, name: 'Printer' },
  ],
  reservations: {
    generate: 0,
    list: [
      {
        id: 'res-1',
        number: '7001',
        firstName: 'Zoë',
        lastName: 'Müller-Lüdenscheidt',
        rooms: ['204'],
        nights: 2,
      },
    ],
  },
};

describe('commands/addKeyCutter', () => {
  it('creates a Pending key-cutter command for the device and reservation', async () => {
    const sim = await startSim({ scenario });
    const answer = await call(sim, 'commands/addKeyCutter', {
      KeyCutterId: 'enc-1',
      ReservationId: 'res-1',
      KeyCount: 3,
    });
    expect(answer.status).toBe(200);
    const { CommandId } = AddCommandResponseSchema.parse(answer.body);
    const byIds = await call(sim, 'commands/getAllByIds', { CommandIds: [CommandId] });
    const [item] = byIds.body.Commands as unknown[];
    const normal = normalizeCommand(item);
    if (!normal.ok || normal.command.data.kind !== 'keys') throw new Error('not a keys command');
    expect(normal.command.state).toBe('Pending');
    expect(normal.command.device.id).toBe('enc-1');
    expect(normal.command.data.keys).toMatchObject({
      keyCount: 3,
      lockIds: ['204'],
      reservationId: 'res-1',
      reservationNumber: '7001',
      keyCutterId: 'ENC-7',
      apiUrl: 'tcp://127.0.0.1:9100',
      guest: { firstName: 'Zoë', lastName: 'Müller-Lüdenscheidt', normalizedFirstName: 'Zoe' },
    });
    expect(sim.history(CommandId)).toHaveLength(1);
  });

  it.each([
    [
      'an unknown device',
      { KeyCutterId: 'nope', ReservationId: 'res-1', KeyCount: 1 },
      400,
      /^Invalid KeyCutterId/,
    ],
    [
      'an unknown reservation',
      { KeyCutterId: 'enc-1', ReservationId: 'nope', KeyCount: 1 },
      400,
      /^Invalid ReservationId/,
    ],
    [
      'a device that is not a KeyCutter',
      { KeyCutterId: 'prn-1', ReservationId: 'res-1', KeyCount: 1 },
      403,
      /not a key cutter/,
    ],
    ['zero keys', { KeyCutterId: 'enc-1', ReservationId: 'res-1', KeyCount: 0 }, 400, /^Invalid KeyCount/],
    [
      'more than 100 keys',
      { KeyCutterId: 'enc-1', ReservationId: 'res-1', KeyCount: 101 },
      400,
      /^Invalid KeyCount/,
    ],
  ])('refuses %s', async (_name, body, status, message) => {
    const sim = await startSim({ scenario });
    const answer = await call(sim, 'commands/addKeyCutter', body);
    expect(answer.status).toBe(status);
    expect(answer.body.Message).toMatch(message);
    expect(sim.commands()).toEqual([]);
  });

  it('requires a known EnterpriseId with a portfolio token, and ignores it otherwise', async () => {
    const portfolio = await startSim({ scenario: { ...scenario, platform: { portfolio: true } } });
    const body = { KeyCutterId: 'enc-1', ReservationId: 'res-1', KeyCount: 1 };
    expect((await call(portfolio, 'commands/addKeyCutter', body)).body.Message).toMatch(
      /^Invalid EnterpriseId/,
    );
    expect((await call(portfolio, 'commands/addKeyCutter', { ...body, EnterpriseId: 'ent-9' })).status).toBe(
      400,
    );
    expect((await call(portfolio, 'commands/addKeyCutter', { ...body, EnterpriseId: 'ent-2' })).status).toBe(
      200,
    );

    const single = await startSim({ scenario });
    expect((await call(single, 'commands/addKeyCutter', { ...body, EnterpriseId: 'whatever' })).status).toBe(
      200,
    );
  });
});
