import { describe, expect, it } from 'vitest';
import { SaltoEncoderOptionsSchema } from '../../../drivers/salto-encoder/config.js';
import { planKeyJob } from '../../../drivers/salto-encoder/plan.js';
import type { KeyJobData } from '../../../src/connector/model.js';
import { roomsWords } from '../../../src/drivers-api/messages.js';
import type { AgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';

const options = (extra: Record<string, unknown> = {}) =>
  SaltoEncoderOptionsSchema.parse({ transport: 'memory', name: 'enc', ...extra });

const keys = (extra: Partial<KeyJobData> = {}): KeyJobData => ({
  keyCount: 2,
  lockIds: ['101'],
  startUtc: '2026-11-21T13:00:00Z',
  endUtc: '2026-11-23T09:59:30Z',
  guest: { firstName: 'Jürgen', lastName: 'Weiß' },
  reservationNumber: '4711',
  keyCutterId: 'Encoder 1',
  settings: { value: {} },
  ...extra,
});

describe('planKeyJob', () => {
  it('builds the request: local validity, ASCII name, reservation and dates on the print lines', () => {
    const plan = planKeyJob(keys(), options(), 'Europe/Rome', 'Maria Rossi');
    expect(plan.total).toBe(2);
    expect(english(roomsWords(plan.rooms))).toBe('room 101');
    expect(plan.request('CN')).toEqual({
      command: 'CN',
      count: 1,
      encoderId: 'Encoder 1',
      eject: 'eject',
      rooms: ['101'],
      grantedAccess: [],
      deniedAccess: [],
      validFrom: '1400211126',
      validUntil: '1100231126',
      operator: 'Maria Rossi',
      printLines: ['Jurgen Weiss', 'Res. 4711', '21/11 - 23/11'],
      serialReturn: 'last',
    });
  });

  it('maps rooms to lock names, prefers normalized names and the configured encoder and operator', () => {
    const plan = planKeyJob(
      keys({
        lockIds: ['101', '102'],
        guest: {
          lastName: '山田',
          firstName: '太郎',
          normalizedFirstName: 'Taro',
          normalizedLastName: 'Yamada',
        },
      }),
      options({
        rooms: { '101': 'Suite Città' },
        encoderId: 'Desk 2',
        operator: 'Nachtportier',
        printCharset: 'latin1',
      }),
      'Europe/Rome',
      undefined,
    );
    expect(plan.base).toMatchObject({
      encoderId: 'Desk 2',
      rooms: ['Suite Città', '102'],
      operator: 'Nachtportier',
      printLines: ['Taro Yamada', 'Res. 4711', '21/11 - 23/11'],
    });
    expect(english(roomsWords(plan.rooms))).toBe('rooms 101 and 102');
  });

  it.each([
    [{ keyCount: 0 }, 'COMMAND_INVALID'],
    [{ keyCount: 11 }, 'COMMAND_INVALID'],
    [{ lockIds: [] }, 'COMMAND_INVALID'],
    [{ lockIds: ['1', '2', '3', '4', '5'] }, 'COMMAND_INVALID'],
    [{ endUtc: '2026-11-20T10:00:00Z' }, 'COMMAND_INVALID'],
    [{ startUtc: 'tomorrow' }, 'COMMAND_INVALID'],
    [{ keyCutterId: undefined }, 'CONFIG_INVALID'],
  ] as Array<[Partial<KeyJobData>, string]>)(
    'refuses %j with %s before touching the encoder',
    (extra, code) => {
      expect(() => planKeyJob(keys(extra), options(), 'Europe/Rome', undefined)).toThrow(
        expect.objectContaining({ code }),
      );
    },
  );

  it('tells the receptionist why a five-room card is refused', () => {
    try {
      planKeyJob(keys({ lockIds: ['1', '2', '3', '4', '5'] }), options(), 'Europe/Rome', undefined);
      expect.unreachable();
    } catch (error) {
      expect(english((error as AgentError).notes)).toBe(
        'A key card opens at most 4 rooms, and this reservation has 5; cut keys per room.',
      );
    }
  });
});

describe('options schema', () => {
  it('requires what each transport needs and parses hex USB ids', () => {
    expect(SaltoEncoderOptionsSchema.safeParse({ transport: 'serial' }).success).toBe(false);
    expect(SaltoEncoderOptionsSchema.safeParse({ transport: 'tcp', host: 'lock' }).success).toBe(false);
    const hid = SaltoEncoderOptionsSchema.parse({ transport: 'hid', vendorId: '0x10C4', productId: 'ea80' });
    expect([hid.vendorId, hid.productId, hid.baudRate, hid.ackTimeoutMs, hid.cardTimeoutMs]).toEqual([
      0x10c4, 0xea80, 9600, 2000, 30000,
    ]);
    expect(
      SaltoEncoderOptionsSchema.safeParse({ transport: 'memory', name: 'x', grantedAccess: [63] }).success,
    ).toBe(false);
  });
});

describe('README', () => {
  it('documents every option of the schema', async () => {
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile(
      new URL('../../../drivers/salto-encoder/README.md', import.meta.url),
      'utf8',
    );
    const keys = Object.keys(SaltoEncoderOptionsSchema.shape);
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.filter((k) => !readme.includes(`\`${k}\``))).toEqual([]);
  });
});
