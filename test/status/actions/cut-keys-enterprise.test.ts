import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { enterpriseForWrite } from '../../../src/connector/enterprise.js';
import { silentLogger } from '../../../src/log.js';
import { StaffSessions } from '../../../src/status/callers/staff-sessions.js';
import { buildStatusServer } from '../../../src/status/server.js';
import { ENCODER_ID, FakeSource } from '../helpers/fake-source.js';
import { asMaria, logIn } from '../helpers/staff-login.js';

/**
 * The Cut keys form sends `EnterpriseId` as the CLI does: `commands/addKeyCutter` requires it with
 * portfolio access tokens and ignores it otherwise (platform-interfaces.md, Part B › Endpoints:
 * commands/addKeyCutter; Part B › Authentication).
 */

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const HOTEL_A = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const HOTEL_B = '4d0201db-36f5-428b-8d11-4f0a65e960cc';
const ORIGIN = { origin: 'http://localhost:80', host: 'localhost:80' };

async function setup(enterpriseIds?: string[]) {
  const source = new FakeSource();
  if (enterpriseIds) source.snap.enterpriseIds = enterpriseIds;
  const sessions = new StaffSessions();
  const app = buildStatusServer({ source, log: silentLogger, sessions, peerUid: asMaria });
  apps.push(app);
  const staff = await logIn(app, sessions);
  const page = await staff.inject({ url: '/' });
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const post = (fields: Record<string, string>) =>
    staff.inject({
      method: 'POST',
      url: '/cut-keys',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...ORIGIN },
      payload: new URLSearchParams({
        csrf,
        deviceId: ENCODER_ID,
        reservationId: 'res-1',
        keyCount: '2',
        ...fields,
      }).toString(),
    });
  return { source, page: page.body, post };
}

describe('Part B › Endpoints: commands/addKeyCutter — EnterpriseId from the Cut keys form', () => {
  it('sends the only configured enterprise without asking', async () => {
    const { source, page, post } = await setup([HOTEL_A]);
    expect(page).not.toContain('name="enterpriseId"');
    expect((await post({})).statusCode).toBe(201);
    expect(source.cutCalls).toEqual([
      { deviceId: ENCODER_ID, reservationId: 'res-1', keyCount: 2, enterpriseId: HOTEL_A },
    ]);
  });

  it('offers a choice with several configured, sends the chosen one, refuses none or another', async () => {
    const { source, page, post } = await setup([HOTEL_A, HOTEL_B]);
    expect(page).toContain(`<select name="enterpriseId" required><option value="${HOTEL_A}">`);
    expect((await post({ enterpriseId: HOTEL_B })).statusCode).toBe(201);
    const missing = await post({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: { code: 'ENTERPRISE_UNKNOWN' } });
    expect((await post({ enterpriseId: 'someone-else' })).statusCode).toBe(400);
    expect(source.cutCalls).toEqual([
      { deviceId: ENCODER_ID, reservationId: 'res-1', keyCount: 2, enterpriseId: HOTEL_B },
    ]);
  });

  it('sends none when none is configured (a token of one enterprise: the platform ignores it)', async () => {
    const { source, post } = await setup();
    expect((await post({})).statusCode).toBe(201);
    expect(source.cutCalls).toEqual([{ deviceId: ENCODER_ID, reservationId: 'res-1', keyCount: 2 }]);
  });
});

describe('Part B › Authentication: EnterpriseId of a write with portfolio tokens (enterpriseForWrite)', () => {
  it('takes the chosen one, else the only configured one, else none', () => {
    expect(enterpriseForWrite([HOTEL_A], HOTEL_A)).toBe(HOTEL_A);
    expect(enterpriseForWrite([HOTEL_A])).toBe(HOTEL_A);
    expect(enterpriseForWrite([], HOTEL_B)).toBe(HOTEL_B);
    expect(enterpriseForWrite([])).toBeUndefined();
  });

  it('refuses a choice outside the configured ones, and no choice among several', () => {
    expect(() => enterpriseForWrite([HOTEL_A], HOTEL_B)).toThrow(/not one of this agent/);
    expect(() => enterpriseForWrite([HOTEL_A, HOTEL_B])).toThrow(/choose one/);
  });
});
