import { afterAll, describe, expect, it } from 'vitest';
import { IppPrinterOptionsSchema } from '../../../drivers/ipp-printer/config.js';
import type { IppPrinterDriver } from '../../../drivers/ipp-printer/driver.js';
import { hasLocalAccount, isThisPc, usesLocalCups } from '../../../drivers/ipp-printer/owner-account.js';
import { english } from '../../../src/messages/render.js';
import { requireTool } from '../../helpers/tools.js';
import { realPrinterDriver } from './helpers.js';

/**
 * The jobs' owner must be an account of this PC when a CUPS here takes the jobs: CUPS 2.4.17
 * (Debian 12's cups 2.4.2-3+deb12u10) crashes on a Cancel-Job from an owner getpwnam cannot find
 * (OpenPrinting/cups:scheduler/auth.c at v2.4.17, fixed in 2.4.18 by commit 6d97ee39f). The driver
 * warns; it never refuses, since printing itself is safe.
 */
const run = requireTool('getent', 'accounts are looked up with getent passwd (libc-bin)');
const options = (extra: Record<string, unknown>) => IppPrinterOptionsSchema.parse(extra);

describe('which addresses are a CUPS on this PC', () => {
  it('loopback names and addresses are this PC; a LAN printer or print server is not', () => {
    expect(isThisPc('ipp://localhost:631/printers/Desk')).toBe(true);
    expect(isThisPc('ipp://127.0.0.1:631/printers/Desk')).toBe(true);
    expect(isThisPc('ipp://[::1]:631/printers/Desk')).toBe(true);
    expect(isThisPc('ipp://192.168.1.20/ipp/print')).toBe(false);
    expect(isThisPc('not a uri')).toBe(false);
  });

  it('a local queue or same-name queues on a local CUPS count; an IPP Everywhere printer does not', () => {
    expect(usesLocalCups(options({ printers: { Desk: 'ipp://localhost:631/printers/Desk' } }))).toBe(true);
    expect(usesLocalCups(options({ cupsQueues: true }))).toBe(true);
    expect(usesLocalCups(options({ printers: { Desk: 'ipps://192.168.1.20/ipp/print' } }))).toBe(false);
    // A printer (or the simulator) on another local port is not the PC's CUPS.
    expect(usesLocalCups(options({ printers: { Desk: 'ipp://127.0.0.1:8631/printers/Desk' } }))).toBe(false);
    expect(usesLocalCups(options({ printers: { Desk: 'ipp://localhost/printers/Desk' } }))).toBe(true);
    expect(usesLocalCups(options({ cupsQueues: true, cupsUrl: 'ipp://printserver.lan:631' }))).toBe(false);
  });
});

describe.runIf(run)('the owner account check', () => {
  const drivers: IppPrinterDriver[] = [];
  afterAll(async () => {
    for (const d of drivers) await d.close();
  });

  /** A driver whose jobs go to a CUPS on this PC (127.0.0.1) as `user`, opened. */
  async function openedAs(user: string): Promise<IppPrinterDriver> {
    const driver = realPrinterDriver(drivers, { cupsQueues: true, cupsUrl: 'ipp://127.0.0.1:9/', user });
    await driver.open(new AbortController().signal);
    return driver;
  }

  it('getent tells an account that exists from one that does not', async () => {
    expect(await hasLocalAccount('root')).toBe(true);
    expect(await hasLocalAccount('no-such-frontdesk-owner')).toBe(false);
  });

  it('an owner with no account on a PC whose CUPS takes the jobs: a warning naming the fix, no refusal', async () => {
    const driver = await openedAs('no-such-frontdesk-owner');
    const warnings = (await driver.status()).warnings.map((w) => english(w));
    expect(warnings).toEqual([expect.stringContaining('Jobs are sent as “no-such-frontdesk-owner”')]);
    expect(warnings[0]).toContain('frontdesk-agent');
  });

  it('an owner that exists: no warning', async () => {
    const driver = await openedAs('root');
    expect((await driver.status()).warnings).toEqual([]);
  });
});
