import { type IppPrinterOptions, IppPrinterOptionsSchema } from '../../../drivers/ipp-printer/config.js';
import { IppPrinterDriver } from '../../../drivers/ipp-printer/driver.js';
import { type IppSimulator, startIppSimulator } from '../../../drivers/ipp-printer/simulator/index.js';
import type { Clock } from '../../../src/clock.js';
import type { PrintJobData } from '../../../src/connector/model.js';
import type { Job } from '../../../src/drivers-api/types.js';
import { tinyPdf } from '../../../src/platform-simulator/pdf.js';
import { jobFor, memoryStore, testDriverContext } from '../../helpers/driver-context.js';

export { rejection } from '../../helpers/rejection.js';

export const PRINTER = 'Reception Laser';

/** A one-page PDF (or `pages` pages) in Base64, as the platform sends it. */
export function pdfBase64(lines: string[] = ['Registration card', 'Room 101'], pages = 1): string {
  if (pages === 1) return tinyPdf(lines).toString('base64');
  // Several /Type /Page objects: enough for the simulator's page count.
  const one = tinyPdf(lines).toString('latin1');
  const extra = Array.from(
    { length: pages - 1 },
    (_, i) => `${90 + i} 0 obj\n<< /Type /Page >>\nendobj\n`,
  ).join('');
  return Buffer.from(one.replace('xref', `${extra}xref`), 'latin1').toString('base64');
}

export function printJob(print: Partial<PrintJobData> = {}, overrides: Partial<Job> = {}): Job {
  const data = {
    kind: 'print' as const,
    print: {
      copyCount: 1,
      fileType: 'application/pdf',
      fileData: pdfBase64(),
      printerName: PRINTER,
      ...print,
    },
  };
  const job = jobFor(data, overrides);
  job.command.device.type = 'Printer';
  return job;
}

export function options(sim: IppSimulator, extra: Record<string, unknown> = {}): IppPrinterOptions {
  return IppPrinterOptionsSchema.parse({
    printers: { [PRINTER]: sim.printerUri(PRINTER) },
    cupsQueues: false,
    pollIntervalMs: 50,
    statusIntervalMs: 0,
    offlineWaitMs: 0,
    requestTimeoutMs: 3000,
    ...extra,
  });
}

/**
 * A driver for a real printer or CUPS (ippeveprinter, cupsd): status loop and offline wait off,
 * quick job polls, a 5 s request timeout; `extra` names the printers and anything else. It is
 * added to `drivers` so that the test closes it.
 */
export function realPrinterDriver(
  drivers: IppPrinterDriver[],
  extra: Record<string, unknown>,
): IppPrinterDriver {
  const options = IppPrinterOptionsSchema.parse({
    pollIntervalMs: 100,
    statusIntervalMs: 0,
    offlineWaitMs: 0,
    requestTimeoutMs: 5000,
    ...extra,
  });
  const d = new IppPrinterDriver(options, testDriverContext({ store: memoryStore() }));
  drivers.push(d);
  return d;
}

export interface Rig {
  sim: IppSimulator;
  driver: IppPrinterDriver;
  close(): Promise<void>;
}

export async function rig(
  opts: {
    extra?: Record<string, unknown>;
    pageMs?: number;
    clock?: Clock;
    historyMs?: number;
    formats?: string[];
    copiesMax?: number;
  } = {},
): Promise<Rig> {
  const sim = await startIppSimulator({
    printers: [
      {
        name: PRINTER,
        pageMs: opts.pageMs ?? 5,
        ...(opts.historyMs !== undefined ? { historyMs: opts.historyMs } : {}),
        ...(opts.formats ? { formats: opts.formats } : {}),
        ...(opts.copiesMax ? { copiesMax: opts.copiesMax } : {}),
      },
    ],
  });
  const ctx = testDriverContext({ store: memoryStore(), ...(opts.clock ? { clock: opts.clock } : {}) });
  const driver = new IppPrinterDriver(options(sim, opts.extra), { ...ctx, deviceName: 'Office printer' });
  return {
    sim,
    driver,
    close: async () => {
      await driver.close();
      await sim.close();
    },
  };
}
