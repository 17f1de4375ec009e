import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { textMessage } from '../../src/messages/message.js';
import { StaffSessions } from '../../src/status/callers/staff-sessions.js';
import { buildStatusServer } from '../../src/status/server.js';
import { ENCODER_ID, FakeSource, FISCAL_ID, PRINTER_ID, XSS } from './helpers/fake-source.js';
import { asMaria, logIn, type StaffBrowser } from './helpers/staff-login.js';

let source: FakeSource;
let app: FastifyInstance;
let browser: StaffBrowser;

beforeEach(async () => {
  source = new FakeSource();
  const sessions = new StaffSessions();
  app = buildStatusServer({ source, log: silentLogger, sessions, peerUid: asMaria });
  browser = await logIn(app, sessions);
});

afterEach(async () => {
  await app.close();
});

describe('GET /', () => {
  it('renders devices, queue, facts, recent commands with timeline, notes and receipt numbers', async () => {
    const res = await browser.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const body = res.body;
    for (const id of [FISCAL_ID, ENCODER_ID, PRINTER_ID]) expect(body).toContain(`data-device-id="${id}"`);
    expect(body).toContain('epson-fpmate');
    expect(body).toContain('Paper low: replace the roll soon');
    expect(body).toContain('2 waiting');
    expect(body).toContain('<code>cmd-running</code>');
    // Facts a receptionist asks about come first, in words.
    const facts = body.slice(body.indexOf(`data-device-id="${FISCAL_ID}"`));
    const order = [
      '<dt>Paper</dt>',
      '<dt>Cover</dt>',
      '<dt>Rt daily open</dt>',
      '<dt>Rt file to send</dt>',
      '<dt>Serial number</dt>',
    ];
    const positions = order.map((label) => facts.indexOf(label));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(body).toContain('<dd data-fact="rtDailyOpen">yes</dd>');
    // Commands: state, timeline, notes, result, error with what to do.
    expect(body).toContain('data-command-id="cmd-receipt" data-state="Processed"');
    expect(body).toContain('Receipt number: 0012-0034');
    expect(body).toContain('Z number: 12');
    expect(body).toMatch(/class="timeline"><li><span class="badge info">Received<\/span>/);
    expect(body).toContain(
      '<strong>NO_CARD</strong>: No card in the encoder; insert a blank card and try again.',
    );
    // Platform link and attention list.
    expect(body).toContain('data-platform="connected"');
    expect(body).toContain('WebSocket up');
    expect(body).toContain('37 of 200 per 30 s');
    expect(body).toContain('What to do: The device cannot be reached');
    // The chart is inline SVG with one bar group per minute.
    expect(body).toContain('<svg class="chart"');
    expect(body.match(/<rect class="bar-ok"/g)).toHaveLength(60);
    // The Cut keys form offers key encoders only.
    expect(body).toContain(`<option value="${ENCODER_ID}">Key encoder</option>`);
    expect(body).not.toContain(`<option value="${FISCAL_ID}"`);
  });

  it('escapes everything that comes from the platform or a device', async () => {
    const res = await browser.inject({ url: '/' });
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).not.toContain('<script>window.__xss');
    expect(res.body).toContain('&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;');
    // Only our own script element, carrying the response's nonce.
    const scripts = res.body.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toHaveLength(1);
    const nonce = /nonce-([A-Za-z0-9+/=]+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    expect(scripts[0]).toBe(`<script nonce="${nonce}">`);
  });

  it('sends security headers: a nonce CSP without unsafe-inline, nosniff, referrer policy, no caching', async () => {
    const a = await browser.inject({ url: '/' });
    const b = await browser.inject({ url: '/' });
    const csp = String(a.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(b.headers['content-security-policy']).not.toBe(csp);
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(a.headers['referrer-policy']).toBe('same-origin');
    expect(a.headers['cache-control']).toBe('no-store');
    expect(a.body).not.toMatch(/https?:\/\/(?!api\.mews-demo\.com|www\.w3\.org\/2000\/svg)/);
  });

  it('shows the outcome of a script-less form submission from the address', async () => {
    const ok = await browser.inject({ url: '/?cut=cmd-77' });
    expect(ok.body).toContain('data-command-id="cmd-77">Command cmd-77 created');
    const failed = await browser.inject({ url: '/?cutError=NO_CARD' });
    expect(failed.body).toContain('No card in the encoder; insert a blank card and try again.');
    const crafted = await browser.inject({
      url: `/?cut=${encodeURIComponent('call 555-0100 to get your keys')}`,
    });
    expect(crafted.body).not.toContain('555-0100');
    const unknown = await browser.inject({ url: `/?cutError=${encodeURIComponent(XSS)}` });
    expect(unknown.body).toContain('<p id="cut-result" aria-live="polite"></p>');
  });

  it('says when no key encoder is configured', async () => {
    source.snap.devices = source.snap.devices.filter((d) => d.type !== 'KeyCutter');
    const res = await browser.inject({ url: '/' });
    expect(res.body).toContain('No key encoder is configured.');
    expect(res.body).not.toContain('id="cut-form"');
  });
});

describe('GET /status.json', () => {
  it('returns the snapshot, uncached', async () => {
    const res = await browser.inject({ url: '/status.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual(source.snapshot());
  });
});

describe('GET /healthz', () => {
  it('answers 200 {ok:true} while healthy and 503 with the reasons otherwise', async () => {
    const healthy = await browser.inject({ url: '/healthz' });
    expect(healthy.statusCode).toBe(200);
    expect(healthy.json()).toEqual({ ok: true });

    source.healthValue = {
      ok: false,
      reasons: [textMessage('platform refuses the tokens (401)'), textMessage('journal not writable')],
    };
    const sick = await browser.inject({ url: '/healthz' });
    expect(sick.statusCode).toBe(503);
    expect(sick.json()).toEqual({
      ok: false,
      reasons: ['platform refuses the tokens (401)', 'journal not writable'],
    });

    source.healthValue = { ok: true, reasons: [] };
    expect((await browser.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('puts health reasons at the top of the page', async () => {
    source.healthValue = { ok: false, reasons: [textMessage('journal not writable')] };
    const res = await browser.inject({ url: '/' });
    expect(res.body).toContain('data-health="failing"');
    expect(res.body).toMatch(/<li class="error"><strong>journal not writable<\/strong>/);
  });
});

describe('closing', () => {
  it('unsubscribes from the source', async () => {
    expect(source.subscribers).toBe(1);
    await app.close();
    expect(source.subscribers).toBe(0);
  });
});
