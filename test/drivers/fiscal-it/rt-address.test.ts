import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { customRtFactory } from '../../../drivers/custom-rt/index.js';
import { customRefusals } from '../../../drivers/custom-rt/messages.js';
import { startCustomRtSimulator } from '../../../drivers/custom-rt/simulator/index.js';
import { printerAddress } from '../../../drivers/fiscal-it/rt/address.js';
import { readPrinterCredentials } from '../../../drivers/fiscal-it/rt/credentials.js';
import { toAgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';
import { memoryStore, testDriverContext } from '../../helpers/driver-context.js';
import { orderItem, payment, saleJob } from '../epson-fpmate/helpers.js';

/**
 * Issue 40's two low RT findings, the address rules every family shares: with a `tls` block the
 * platform cannot steer the printer's documents (and the Custom printer's Basic credentials) to
 * `http:` or to another port of an allowed host; and the account can come from a file
 * (`credentialsFile`, e.g. systemd `LoadCredential=`) instead of agent.yaml.
 */
const refusedWith = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    const error = toAgentError(e);
    expect(error.code).toBe('COMMAND_INVALID');
    return english(error.notes);
  }
  throw new Error('accepted');
};

describe('fromPlatform with a tls block (issue 40)', () => {
  const tls = { url: 'fromPlatform', allowedHosts: ['printer.lan', 'till.lan:8443'], tls: {} };

  it('accepts https on the configured port only (443 when the entry names none)', () => {
    expect(printerAddress(tls, 'https://printer.lan/xml/printer.htm', customRefusals)).toBe(
      'https://printer.lan',
    );
    expect(printerAddress(tls, 'https://till.lan:8443', customRefusals)).toBe('https://till.lan:8443');
  });

  it('refuses plain http, and another port of an allowed host', () => {
    expect(refusedWith(() => printerAddress(tls, 'http://printer.lan', customRefusals))).toMatch(
      /only https/,
    );
    expect(refusedWith(() => printerAddress(tls, 'https://printer.lan:8080', customRefusals))).toMatch(
      /printer\.lan:8080/,
    );
    expect(refusedWith(() => printerAddress(tls, 'https://till.lan:9443', customRefusals))).toMatch(
      /till\.lan:9443/,
    );
  });

  it('without tls keeps its rule: an entry without a port allows any port', () => {
    const plain = { url: 'fromPlatform', allowedHosts: ['printer.lan'] };
    expect(printerAddress(plain, 'http://printer.lan:8080', customRefusals)).toBe('http://printer.lan:8080');
  });
});

describe('credentialsFile (issue 40)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'printer-cred-'));
  const file = (name: string, content: string, mode = 0o600) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    chmodSync(path, mode);
    return path;
  };
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('reads user:password from an owner-only file; refuses one others may read, and never says the password', () => {
    expect(readPrinterCredentials(file('ok', 'cassa:se:cret\n'))).toEqual({
      user: 'cassa',
      password: 'se:cret',
    });
    const open = file('open', 'cassa:secret', 0o644);
    expect(() => readPrinterCredentials(open)).toThrow(/chmod 600/);
    expect(() => readPrinterCredentials(file('bad', 'secret-without-user'))).toThrow(/user:password/);
    try {
      readPrinterCredentials(file('bad2', 'nocolon-secret'));
    } catch (e) {
      expect(String((e as Error).message)).not.toContain('nocolon-secret');
    }
  });

  it('the Custom driver logs in with the file’s account; credentials and credentialsFile together are refused', async () => {
    const sim = await startCustomRtSimulator({ credentials: { user: 'cassa', password: 'p4ss' } });
    close = () => sim.close();
    const options = customRtFactory.configSchema.parse({
      url: sim.url,
      serialNumber: 'STMTE501091',
      credentialsFile: file('acct', 'cassa:p4ss'),
      statusIntervalMs: 0,
      dailyClosure: { enabled: false },
    });
    const ctx = testDriverContext({
      store: memoryStore(),
      orderItems: [orderItem('i1', { unitGross: 5, rate: 22 })],
      payments: [payment('p1', 'CreditCardPayment', 5)],
    });
    const driver = customRtFactory.create(options, ctx);
    const ectx = {
      signal: new AbortController().signal,
      progress: () => undefined,
      checkpoint: async () => undefined,
    };
    await driver.execute(saleJob('cred'), ectx);
    expect(sim.printed.filter((d) => d.kind === 'sale')).toHaveLength(1);
    await driver.close();
    const both = customRtFactory.configSchema.safeParse({
      url: sim.url,
      credentials: { user: 'a', password: 'b' },
      credentialsFile: '/x',
    });
    expect(both.success).toBe(false);
  });
});
