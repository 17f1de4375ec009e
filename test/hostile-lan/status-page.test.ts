import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../helpers/tls.js';
import { type Desk, openDesk } from '../hostile-local/desk.js';
import { FISCAL_ID } from '../status/helpers/fake-source.js';
import { canMakeLan, type Lan, openLan } from './lan-peer.js';

/**
 * Issue 40, findings H1 and H2 from the hotel's network (a peer in a network namespace: another
 * computer, as far as the desk can tell). The action token crossed the LAN in clear every 30 s
 * (the shipped Prometheus example) and, with it, anyone on the network could void receipts and
 * cut keys; a session cookie worked from anywhere. Now the action token is refused from beyond
 * loopback unless the page speaks HTTPS (`status.tls`), the metrics token reads `/metrics` and
 * nothing else, and a session opened from one address is refused from any other, and audited.
 */

const ACTION = 'action-token-0123456789abcdef';
const METRICS = 'metrics-token-0123456789abcdef';

let lan: Lan | undefined;
let desk: Desk | undefined;
beforeAll(() => {
  if (canMakeLan) lan = openLan();
});
afterAll(() => lan?.close());
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const json = { 'content-type': 'application/json', accept: 'application/json' };

describe.skipIf(!canMakeLan)('the status page seen from the LAN', () => {
  it('over plain HTTP: the action token is refused unheard, the metrics token reads /metrics only', async () => {
    const net = lan as Lan;
    desk = await openDesk({ accessToken: ACTION, metricsToken: METRICS, listen: `${net.hostAddress}:0` });
    const base = desk.server.url;
    const [metrics, metricsAct, inClear, status] = await net.send([
      { url: `${base}metrics`, headers: { authorization: `Bearer ${METRICS}` } },
      {
        url: `${base}actions/${FISCAL_ID}/z-report`,
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${METRICS}` },
        body: '{"confirm":"yes"}',
      },
      {
        url: `${base}actions/${FISCAL_ID}/z-report`,
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${ACTION}` },
        body: '{"confirm":"yes"}',
      },
      { url: `${base}status.json`, headers: { authorization: `Bearer ${ACTION}` } },
    ]);
    expect(metrics?.status).toBe(200);
    expect(metrics?.text).toContain('# TYPE');
    expect(metricsAct?.status).toBe(403);
    expect(inClear?.status).toBe(403);
    expect(JSON.parse(inClear?.text ?? '{}')).toMatchObject({ error: { code: 'TLS_REQUIRED' } });
    expect(status?.status).toBe(403);
    expect(desk.performed).toEqual([]);
    expect(desk.log.lines.join('\n')).toContain(
      `the action token came from another machine over plain HTTP; refused (configure status.tls, or use an SSH tunnel) from=${net.peerAddresses[0]}`,
    );
  });

  it('over HTTPS: the action token acts (audited with its address), and a session works only from the address that opened it', async () => {
    const net = lan as Lan;
    const tls = selfSignedCertificate(mkdtempSync(join(tmpdir(), 'fd-lan-tls-')), net.hostAddress);
    desk = await openDesk({
      accessToken: ACTION,
      metricsToken: METRICS,
      listen: `${net.hostAddress}:0`,
      tls,
    });
    const base = desk.server.url;
    expect(base).toMatch(/^https:\/\//);
    const origin = base.replace(/\/$/, '');
    const [script, login] = await net.send([
      {
        url: `${base}actions/${FISCAL_ID}/x-report`,
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${ACTION}` },
        body: '{}',
        ca: tls.cert,
      },
      {
        url: `${base}login`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: `token=${ACTION}`,
        ca: tls.cert,
      },
    ]);
    expect(script?.status).toBe(200);
    expect(desk.performed).toEqual(['x-report']);
    expect(desk.log.lines.join('\n')).toMatch(
      new RegExp(
        `audit=device-action who=remote-with-token from=${net.peerAddresses[0].replace(/\./g, '\\.')} .*result=done`,
      ),
    );
    expect(login?.status).toBe(303);
    const setCookie = String(login?.headers['set-cookie']);
    expect(setCookie).toMatch(
      /^__Host-frontdesk_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=28800$/,
    );
    const cookie = setCookie.split(';')[0] as string;
    const [own, elsewhere] = await net.send([
      { url: `${base}status.json`, headers: { cookie }, ca: tls.cert },
      { url: `${base}status.json`, headers: { cookie }, ca: tls.cert, from: 1 },
    ]);
    expect(own?.status).toBe(200);
    expect(elsewhere?.status).toBe(401);
    expect(desk.log.lines.join('\n')).toMatch(
      new RegExp(
        `audit=session-refused .*owner="address ${net.peerAddresses[0]}" from=${net.peerAddresses[1]} reason=another-address`,
      ),
    );
  });
});
