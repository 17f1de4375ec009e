import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IppPrinterOptions } from '../../../drivers/ipp-printer/config.js';
import { discoverIppPrinters } from '../../../drivers/ipp-printer/discovery.js';
import type { IppPrinterDriver } from '../../../drivers/ipp-printer/driver.js';
import { silentLogger } from '../../../src/log.js';
import type { Message } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { createHttpClient } from '../../../src/transport/http.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import { requireTool } from '../../helpers/tools.js';
import { CUPSD, type Cupsd, LPADMIN, startCupsd } from './cupsd.js';
import { printJob, realPrinterDriver, rejection } from './helpers.js';
import { DBUS_DAEMON, IPPEVEPRINTER, type Ippeve, startIppeveprinter } from './ippeveprinter.js';

const words = (text: Message) => english(text);

/**
 * The CUPS path end to end: a real cupsd (foreground, its own configuration, 127.0.0.1 on a free
 * port, Debian's default access policy) with an IPP Everywhere queue whose device is an
 * ippeveprinter; the driver prints through the queue by platform name, without any password.
 *
 * The jobs' owner (`user`, the `requesting-user-name`) is an account this machine has, as the
 * service account `frontdesk-agent` is on a front-desk PC (systemd/frontdesk-agent.service,
 * `User=`). It must be: CUPS 2.4.17's fix for CVE-2026-27447 looks the owner up with getpwnam and
 * dereferences the result unchecked in the `@OWNER` test (OpenPrinting/cups:scheduler/auth.c,
 * cupsdIsAuthorized, tag v2.4.17), so a Cancel-Job from an owner with no local account kills the
 * scheduler; 2.4.18 fixed it ("Fixed cupsd crash if user does not exist", commit 6d97ee39f), but
 * Debian's `cups 2.4.2-3+deb12u10` carries the CVE fix without that one (seen here: cupsd
 * segfaults at the cancel test). The driver warns about such an owner (ipp-printer/owner-account).
 */
const OWNER = 'nobody';
const run =
  requireTool(CUPSD, 'the CUPS path is tested against a real scheduler') &&
  requireTool(LPADMIN, 'queues are added with lpadmin') &&
  requireTool(IPPEVEPRINTER, 'the queue prints to ippeveprinter') &&
  requireTool(DBUS_DAEMON, 'ippeveprinter needs a D-Bus');
const asRoot = process.getuid?.() === 0;
if (run && !asRoot && process.env.CI === 'true') throw new Error('cupsd needs root; CI runs as root');

describe.runIf(run && asRoot)('ipp-printer through a real CUPS queue', () => {
  let cups: Cupsd;
  let printer: Ippeve;
  const drivers: IppPrinterDriver[] = [];

  function driver(extra: Partial<IppPrinterOptions> = {}): IppPrinterDriver {
    return realPrinterDriver(drivers, {
      cupsUrl: cups.url,
      cupsQueues: true,
      jobTimeoutMs: 30_000,
      user: OWNER,
      ...extra,
    });
  }

  beforeAll(async () => {
    printer = await startIppeveprinter({ pageDelay: 0.05 });
    cups = await startCupsd();
    await cups.addQueue('Reception_Laser', printer.uri);
  }, 60_000);

  afterAll(async () => {
    for (const d of drivers) await d.close();
    await cups?.stop();
    await printer?.stop();
  });

  it('prints on the same-name queue (spaces become _), and the document reaches the printer once', async () => {
    const result = await driver().execute(
      printJob({ copyCount: 2, printerName: 'Reception Laser' }, { commandId: 'cups-copies' }),
      recordingExecuteContext(),
    );
    expect(words(result.notes)).toBe('Printed 2 copies of 1 page on Reception Laser');
    await eventually('the document at the printer', () =>
      printer.documents().some((d) => d.jobName === 'cups-copies'),
    );
    expect(printer.documents().filter((d) => d.jobName === 'cups-copies')).toHaveLength(1);
  });

  it('an unknown queue ends in Error naming the queues CUPS has', async () => {
    const error = await rejection(
      driver().execute(
        printJob({ printerName: 'Bar Inkjet' }, { commandId: 'cups-unknown' }),
        recordingExecuteContext(),
      ),
    );
    expect(error.code).toBe('COMMAND_INVALID');
    expect(words(error.notes)).toContain('Printers it knows: Reception_Laser.');
  });

  it('Get-Jobs through CUPS finds our job by name without a password (reconcile after a crash)', async () => {
    const ectx = recordingExecuteContext();
    await driver().execute(
      printJob({ printerName: 'Reception Laser' }, { commandId: 'cups-reconcile' }),
      ectx,
    );
    const sending = ectx.checkpoints[0];
    const outcome = await driver().reconcile(
      printJob({}, { commandId: 'cups-reconcile', checkpoint: sending }),
      new AbortController().signal,
    );
    expect(outcome).toMatchObject({ outcome: 'done' });
    const nothing = { ...(sending as object), jobName: 'never-sent' };
    expect(
      await driver().reconcile(
        printJob({}, { commandId: 'never-sent', checkpoint: nothing }),
        new AbortController().signal,
      ),
    ).toEqual({
      outcome: 'not-done',
    });
  });

  it('a platform cancellation of a held job: Cancel-Job as the job’s owner works without a password', async () => {
    const d = driver({ jobTimeoutMs: 60_000 });
    await printer.setPaperEmpty(true);
    const controller = new AbortController();
    const ectx = recordingExecuteContext(controller.signal);
    try {
      const running = rejection(
        d.execute(printJob({ printerName: 'Reception Laser' }, { commandId: 'cups-cancel' }), ectx),
      );
      await eventually('CUPS to take the job', () =>
        ectx.checkpoints.some((c) => (c as { phase: string }).phase === 'accepted'),
      );
      controller.abort();
      const error = await running;
      expect(error.code).toBe('ABORTED');
      expect(words(error.notes)).toMatch(/^Cancelled on Reception Laser \(job \d+\)/);
    } finally {
      await printer.setPaperEmpty(false);
    }
  });

  it('devices lists the CUPS queues with a suggested configuration', async () => {
    const report = await discoverIppPrinters(
      { http: createHttpClient, log: silentLogger, signal: new AbortController().signal, browseMs: 0 },
      { cupsUrl: cups.url, browse: async () => [] },
    );
    expect(report.devices).toEqual([
      expect.objectContaining({
        source: 'CUPS queue',
        name: 'Reception_Laser',
        address: `${cups.url}/printers/Reception_Laser`,
        suggestedOptions: { printers: { Reception_Laser: `${cups.url}/printers/Reception_Laser` } },
      }),
    ]);
  });
});
