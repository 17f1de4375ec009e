import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createMemoryLogger } from '../../src/log.js';
import { textMessage } from '../../src/messages/message.js';
import { messageRenderer } from '../../src/messages/render.js';
import { StaffSessions } from '../../src/status/callers/staff-sessions.js';
import { createMetrics } from '../../src/status/metrics/metrics.js';
import { waitingLines } from '../../src/status/page/queue-words.js';
import { buildStatusServer } from '../../src/status/server.js';
import type { AgentSnapshot } from '../../src/status-model.js';
import { FakeSource, FISCAL_ID, NOW, PRINTER_ID, sampleSnapshot } from './helpers/fake-source.js';
import { asMaria, logIn, PAGE_HEADERS, PAGE_JSON_HEADERS, postFromPage } from './helpers/staff-login.js';

/**
 * The queue, visible and movable (issue 26): what waits — each device's queued commands, the
 * results not yet delivered — with why, on the page, in `doctor`'s words and in `/metrics`; and
 * staff's "Try delivery now" (src/status/actions/deliver-now.ts), guarded, rate-limited and audited as
 * every staff action is.
 */

const MIN = 60_000;
const say = (locale: 'en' | 'it' = 'en') => messageRenderer(locale, 'Europe/Rome');

/** 14:00 in Rome: an outbox failing since 13:42 (Rome), next try 13:44 + … */
function troubled(): AgentSnapshot {
  const snap = sampleSnapshot();
  snap.outbox = {
    pending: 3,
    oldestAt: NOW - 18 * MIN,
    trouble: { since: NOW - 18 * MIN, code: 'PLATFORM_UNREACHABLE', reason: 'outage', until: NOW + 2 * MIN },
  };
  const printer = snap.devices.find((d) => d.id === PRINTER_ID);
  if (printer) {
    printer.queued = 4;
    printer.status = {
      connected: true,
      summary: textMessage('stopped'),
      warnings: [textMessage('Reception Laser is out of paper — load paper into the tray')],
      facts: {},
    };
  }
  return snap;
}

describe('what waits, and why', () => {
  it('names each queue with its count and the reason that holds it', () => {
    const lines = waitingLines(troubled()).map((l) => ({
      subject: l.subject,
      count: l.count,
      what: say().render(l.what),
      why: l.why && say().render(l.why),
    }));
    expect(lines).toEqual([
      {
        subject: 'device',
        count: 2,
        what: 'Fiscal printer: 2 commands queued',
        // The fiscal printer's own warning comes first: it is what staff can act on.
        why: 'Paper low: replace the roll soon',
      },
      {
        subject: 'device',
        count: 4,
        what: 'Back office <img src=x onerror="window.__xss=1"><script>window.__xss=2</script>: 4 commands queued',
        why: 'Reception Laser is out of paper — load paper into the tray',
      },
      {
        subject: 'outbox',
        count: 3,
        what: '3 results and updates not yet delivered to the platform',
        why: 'platform unreachable since 13:42:00 (PLATFORM_UNREACHABLE); next try at 14:02:00',
      },
    ]);
  });

  it('says the platform’s rate limit before an outage, and in Italian', () => {
    const snap = troubled();
    snap.platform.budget.blockedUntil = NOW + 4 * MIN;
    const outbox = waitingLines(snap).find((l) => l.subject === 'outbox');
    expect(outbox?.why && say().render(outbox.why)).toBe('rate limited until 14:04:00');
    expect(outbox?.why && say('it').render(outbox.why)).toBe(
      'limite di richieste della piattaforma fino alle 14:04:00',
    );
    expect(say('it').render(outbox?.what ?? textMessage(''))).toBe(
      '3 risultati e aggiornamenti non ancora consegnati alla piattaforma',
    );
  });

  it('says a refused token, a device behind its running command, and nothing when nothing waits', () => {
    const snap = troubled();
    snap.outbox.trouble = { since: NOW - 5 * MIN, code: 'PLATFORM_AUTH', reason: 'refused' };
    const fiscal = snap.devices.find((d) => d.id === FISCAL_ID);
    if (fiscal) fiscal.status.warnings = [];
    const lines = waitingLines(snap);
    expect(say().render(lines[0]?.why ?? textMessage(''))).toBe(
      'behind the command running now (cmd-running)',
    );
    expect(say().render(lines.at(-1)?.why ?? textMessage(''))).toBe(
      'the platform refuses the agent’s tokens since 13:55:00 (PLATFORM_AUTH); trying again now',
    );
    const idle = sampleSnapshot();
    idle.outbox = { pending: 0 };
    for (const d of idle.devices) d.queued = 0;
    expect(waitingLines(idle)).toEqual([]);
  });

  it('puts the same counts in /metrics: queue depth per device, results waiting, how long delivery fails', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    metrics.collect(troubled());
    const text = await metrics.text();
    expect(text).toMatch(new RegExp(`frontdesk_queue_depth\\{device="${PRINTER_ID}",[^}]*\\} 4`));
    expect(text).toMatch(new RegExp(`frontdesk_queue_depth\\{device="${FISCAL_ID}",[^}]*\\} 2`));
    expect(text).toContain('frontdesk_outbox_pending 3');
    expect(text).toContain('frontdesk_outbox_failing_seconds 1080');
    const fine = sampleSnapshot();
    metrics.collect(fine);
    expect(await metrics.text()).toContain('frontdesk_outbox_failing_seconds 0');
  });
});

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

function build(options: { accessToken?: string; perMinute?: number; locale?: 'en' | 'it' } = {}) {
  const log = createMemoryLogger();
  const sessions = new StaffSessions();
  const source = new FakeSource();
  source.snap = troubled();
  const app = buildStatusServer({
    peerUid: asMaria,
    source,
    log,
    sessions,
    clock: new ManualClock(NOW),
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.accessToken ? { accessToken: options.accessToken } : {}),
    ...(options.perMinute ? { actions: { perMinute: options.perMinute } } : {}),
  });
  apps.push(app);
  const staff = () => logIn(app, sessions, { headers: { host: 'localhost:80' } });
  return { app, log, source, staff };
}

describe('Try delivery now', () => {
  it('is on the page beside what waits, and ends the outbox’s pause when staff ask, audited', async () => {
    const { log, source, staff } = build();
    const maria = await staff();
    const { csrf, inject } = maria;
    const page = await inject({ url: '/', headers: { host: 'localhost' } });
    expect(page.body).toContain('<div id="waiting"><ul class="waiting">');
    expect(page.body).toContain(
      'platform unreachable since 13:42:00 (PLATFORM_UNREACHABLE); next try at 14:02:00',
    );
    expect(page.body).toContain('action="outbox/deliver-now"');
    expect(page.body).toContain(`<input type="hidden" name="csrf" value="${csrf}">`);

    const res = await postFromPage(maria, '/outbox/deliver-now');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ pending: 3, lifted: true, notes: 'Delivering 3 waiting updates now.' });
    expect(source.deliverNowCalls).toBe(1);
    const audit = log.lines.filter((l) => l.includes('audit=deliver-now'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatch(
      /info local action deliver-now audit=deliver-now who=page from=127\.0\.0\.1 uid=1001 user=maria session=[0-9a-f]{12} login=link via=page result=done pending=3 lifted=yes$/,
    );
    // Asked again while the deliveries are on their way: nothing to lift.
    const again = await postFromPage(maria, '/outbox/deliver-now');
    expect(again.json()).toMatchObject({ lifted: false, notes: '3 updates are already being delivered.' });
  });

  it('says until when the platform’s rate limit still holds the updates', async () => {
    const { source, staff } = build({ locale: 'it' });
    source.snap.platform.budget.blockedUntil = NOW + 4 * MIN;
    const res = await postFromPage(await staff(), '/outbox/deliver-now');
    expect(res.json()).toMatchObject({
      rateLimitedUntil: NOW + 4 * MIN,
      notes:
        'La piattaforma ha chiesto all’agente di attendere fino alle 14:04:00; i 3 aggiornamenti in attesa partono allora.',
    });
  });

  it('refuses a caller without a login, a page request without its CSRF token, and does nothing', async () => {
    const { app, log, source, staff } = build();
    const anonymous = await app.inject({
      method: 'POST',
      url: '/outbox/deliver-now',
      headers: PAGE_JSON_HEADERS,
    });
    expect(anonymous.statusCode).toBe(401);
    const { inject } = await staff();
    const forged = await inject({
      method: 'POST',
      url: '/outbox/deliver-now',
      headers: { ...PAGE_JSON_HEADERS, origin: 'http://evil.example' },
      payload: {},
    });
    expect(forged.statusCode).toBe(403);
    const noToken = await inject({
      method: 'POST',
      url: '/outbox/deliver-now',
      headers: PAGE_JSON_HEADERS,
      payload: {},
    });
    expect(noToken.statusCode).toBe(403);
    expect(source.deliverNowCalls).toBe(0);
    expect(log.lines.filter((l) => l.includes('audit=deliver-now'))).toEqual([]);
  });

  it('is rate-limited per caller like every staff action: 429 with Retry-After, audited as refused', async () => {
    const { log, source, staff } = build({ perMinute: 2, accessToken: 'STATUS-TOKEN-0123456789' });
    const maria = await staff();
    const post = () => postFromPage(maria, '/outbox/deliver-now');
    expect((await post()).statusCode).toBe(200);
    expect((await post()).statusCode).toBe(200);
    const limited = await post();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.json()).toMatchObject({ error: { code: 'TOO_MANY_ACTIONS' } });
    expect(source.deliverNowCalls).toBe(2);
    expect(
      log.lines.filter((l) => /audit=deliver-now .*result=refused code=TOO_MANY_ACTIONS$/.test(l)),
    ).toHaveLength(1);
  });

  it('answers a plain form with a redirect to the page, which shows the outcome', async () => {
    const { staff } = build();
    const { csrf, inject } = await staff();
    const res = await inject({
      method: 'POST',
      url: '/outbox/deliver-now',
      headers: { ...PAGE_HEADERS, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `csrf=${encodeURIComponent(csrf)}`,
    });
    expect(res.statusCode).toBe(303);
    const location = String(res.headers.location);
    expect(location).toMatch(/^\.\.\/\?queue=[\w-]+#queue$/);
    const page = await inject({
      url: `/${location.slice(3)}`.replace('#queue', ''),
      headers: { host: 'localhost' },
    });
    expect(page.body).toContain(
      '<p id="queue-notice" class="badge ok" aria-live="polite">Try delivery now: Delivering 3 waiting updates now.</p>',
    );
  });
});
