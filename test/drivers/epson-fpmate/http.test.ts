import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureOf, fpmateEndpoint } from '../../../drivers/epson-fpmate/http.js';
import { epsonFpmateFactory } from '../../../drivers/epson-fpmate/index.js';
import { AgentError } from '../../../src/errors.js';
import { HttpFailure } from '../../../src/transport/http.js';
import { recordingExecuteContext, testDriverContext } from '../../helpers/driver-context.js';
import { selfSignedCertificate } from '../../helpers/tls.js';
import { requireTool } from '../../helpers/tools.js';
import { orderItem, payment, printedOf, type Rig, rig, saleJob } from './helpers.js';

describe('fpmate endpoint and failure classification', () => {
  it('builds http(s)://host/cgi-bin/fpmate.cgi?devid=…&timeout=… from a printer address', () => {
    expect(fpmateEndpoint('http://192.168.1.50', 'local_printer', 10000).href).toBe(
      'http://192.168.1.50/cgi-bin/fpmate.cgi?devid=local_printer&timeout=10000',
    );
    expect(fpmateEndpoint('https://fp.example.com:8443/api?x=1#y', 'local_printer', 500).href).toBe(
      'https://fp.example.com:8443/cgi-bin/fpmate.cgi?devid=local_printer&timeout=500',
    );
    expect(fpmateEndpoint('https://user:pw@fp/cgi-bin/fpmate.cgi', 'printer2', 1).href).toBe(
      'https://fp/cgi-bin/fpmate.cgi?devid=printer2&timeout=1',
    );
  });

  it('refuses addresses that are not http(s)', () => {
    for (const bad of ['ftp://printer', 'printer:80', '']) {
      const error = (() => {
        try {
          fpmateEndpoint(bad, 'local_printer', 1);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(AgentError);
      expect((error as AgentError).code).toBe('COMMAND_INVALID');
    }
  });

  it('tells "never reached the printer" from "may have reached it" by the HTTP stack’s HttpFailure.sent', () => {
    const cause = (code: string) => Object.assign(new Error(code), { code });
    expect(failureOf(new HttpFailure('HTTP_CONNECT', 'x', false, cause('ECONNREFUSED')))).toEqual({
      kind: 'not-sent',
      reason: 'ECONNREFUSED',
    });
    expect(failureOf(new HttpFailure('HTTP_FINGERPRINT', 'x', false))).toEqual({
      kind: 'not-sent',
      reason: 'certificate fingerprint mismatch',
    });
    expect(failureOf(new HttpFailure('HTTP_BROKEN', 'x', true, cause('ECONNRESET')))).toEqual({
      kind: 'lost',
      reason: 'ECONNRESET',
    });
    expect(failureOf(new HttpFailure('HTTP_TIMEOUT', 'x', true))).toEqual({
      kind: 'lost',
      reason: 'timeout',
    });
    expect(failureOf(new HttpFailure('HTTP_TOO_LARGE', 'x', true))).toEqual({
      kind: 'lost',
      reason: 'answer too large',
    });
    expect(failureOf(new DOMException('stopped', 'AbortError'))).toEqual({
      kind: 'lost',
      reason: 'AbortError',
    });
  });

  it('refuses to start with an unreadable CA file (CONFIG_INVALID)', () => {
    const options = epsonFpmateFactory.configSchema.parse({
      url: 'https://10.0.0.5',
      tls: { caFile: '/nonexistent/ca.pem' },
    });
    expect(() => epsonFpmateFactory.create(options, testDriverContext())).toThrow(
      /Cannot read the device CA file/,
    );
  });

  it('refuses insecure with a CA or fingerprint, a malformed fingerprint and unknown keys', () => {
    const parse = (tls: unknown) =>
      epsonFpmateFactory.configSchema.safeParse({ url: 'https://10.0.0.5', tls }).success;
    expect(parse({ insecure: true, caFile: '/ca.pem' })).toBe(false);
    expect(parse({ fingerprint: 'AB:CD' })).toBe(false);
    expect(parse({ fingerprint: 'ab'.repeat(32) })).toBe(true);
    expect(parse({ fingerprint256: 'ab'.repeat(32) })).toBe(false);
    expect(
      epsonFpmateFactory.configSchema.safeParse({ url: 'http://10.0.0.5', departmets: { '22': 1 } }).success,
    ).toBe(false);
    // The last-document command is no longer an option: 1078 prints a line on public drivers' printers.
    expect(
      epsonFpmateFactory.configSchema.safeParse({ url: 'http://10.0.0.5', lastDocumentCommand: '1078' })
        .success,
    ).toBe(false);
  });
});

const haveOpenssl = requireTool('openssl', 'a self-signed printer certificate for the HTTPS tests');

describe.runIf(haveOpenssl)('HTTPS to a printer with a self-signed certificate', () => {
  let dir = '';
  let key = '';
  let cert = '';
  let fingerprint = '';
  let r: Rig | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fpmate-tls-'));
    ({ key, cert, fingerprint } = selfSignedCertificate(dir, 'printer.local'));
  });

  afterAll(async () => {
    await r?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function attempt(
    tls: Record<string, unknown> | undefined,
  ): Promise<{ ok: boolean; code?: string; printed: number }> {
    await r?.close();
    r = await rig({
      items: [orderItem('i', { unitGross: 10, rate: 22 })],
      payments: [payment('p', 'CashPayment', 10)],
      sim: { tls: { key, cert } },
      driver: tls ? { tls } : {},
    });
    const outcome = await r.driver.execute(saleJob(), recordingExecuteContext()).then(
      () => ({ ok: true }),
      (e: unknown) => ({ ok: false, code: (e as AgentError).code }),
    );
    return { ...outcome, printed: printedOf(r.sim, 'sale').length };
  }

  it('trusts a configured CA, checking the name given in serverName', async () => {
    expect(await attempt({ caFile: join(dir, 'cert.pem'), serverName: 'printer.local' })).toEqual({
      ok: true,
      printed: 1,
    });
    expect(await attempt({ caFile: join(dir, 'cert.pem') })).toEqual({
      ok: false,
      code: 'DEVICE_UNAVAILABLE',
      printed: 0,
    });
  });

  it('trusts a pinned SHA-256 fingerprint and refuses any other certificate', async () => {
    expect(await attempt({ fingerprint: fingerprint })).toEqual({ ok: true, printed: 1 });
    const other = fingerprint.replace(/^../, fingerprint.startsWith('00') ? '11' : '00');
    expect(await attempt({ fingerprint: other })).toEqual({
      ok: false,
      code: 'DEVICE_UNAVAILABLE',
      printed: 0,
    });
  });

  it('refuses a self-signed printer by default and accepts it only with insecure: true', async () => {
    expect(await attempt(undefined)).toEqual({ ok: false, code: 'DEVICE_UNAVAILABLE', printed: 0 });
    expect(await attempt({ insecure: true })).toEqual({ ok: true, printed: 1 });
  });
});
