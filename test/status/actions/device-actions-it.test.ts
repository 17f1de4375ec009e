import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { epsonActions } from '../../../drivers/epson-fpmate/actions.js';
import { fiscalNotes } from '../../../drivers/epson-fpmate/messages.js';
import { epsonClosure } from '../../../drivers/epson-fpmate/messages-results.js';
import { ManualClock } from '../../../src/clock.js';
import { createMemoryLogger } from '../../../src/log.js';
import { StaffSessions } from '../../../src/status/callers/staff-sessions.js';
import { buildStatusServer } from '../../../src/status/server.js';
import { ActionSource } from '../helpers/action-source.js';
import { FISCAL_ID, NOW } from '../helpers/fake-source.js';
import { asMaria, logIn, postFromPage } from '../helpers/staff-login.js';

/**
 * Issue 18.1 for the device actions: with `locale: it` the page names the Epson printer's actions,
 * their fields and confirmations in Italian, and what an action answers (its Notes, a refusal) is
 * Italian too — the same catalogue entries an English page shows in English.
 */

const actions = () =>
  epsonActions({
    serial: () => '99MEX012345',
    xReport: async () => ({ notes: fiscalNotes.xReportPrinted('99MEX012345'), details: { report: 'x' } }),
    zReport: async () => ({
      status: 'skipped',
      reason: 'staff',
      detail: epsonClosure.nothingToClose(),
      at: NOW,
    }),
    voidReceipt: async () => ({ notes: fiscalNotes.voidSerialUnknown(), details: {} }),
    reprint: async () => ({ notes: fiscalNotes.voidSerialUnknown(), details: {} }),
  });

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

describe('device actions in Italian', () => {
  it('the page names the actions in Italian, and their answers are Italian', async () => {
    const sessions = new StaffSessions();
    const app = buildStatusServer({
      peerUid: asMaria,
      source: new ActionSource(actions, 'Stampante fiscale'),
      log: createMemoryLogger(),
      clock: new ManualClock(NOW),
      locale: 'it',
      sessions,
    });
    apps.push(app);
    const staff = await logIn(app, sessions);
    const page = (await staff.inject({ url: '/', headers: { host: 'localhost' } })).body;
    expect(page).toContain('<h2>Operazioni sui dispositivi</h2>');
    expect(page).toContain('<button type="submit">Stampa rapporto Z</button>');
    expect(page).toContain('Chiudere ora la giornata fiscale: la stampante stampa il rapporto Z');
    expect(page).toContain('Numero dello scontrino<input');
    expect(page).not.toContain('Print Z report');

    const post = (action: string, payload: object) =>
      postFromPage(staff, `/actions/${FISCAL_ID}/${action}`, payload);
    const done = await post('x-report', {});
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      notes: 'Rapporto X (rapporto finanziario giornaliero) stampato su RT 99MEX012345',
    });
    const unconfirmed = await post('void', { receipt: '0012-0034' });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json()).toMatchObject({
      error: {
        code: 'NOT_CONFIRMED',
        notes: 'Confermare prima: Annullare questo scontrino: la stampante stampa un documento di annullo.',
      },
    });
  });
});
