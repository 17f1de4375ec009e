import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IppPrinterOptions } from '../../../drivers/ipp-printer/config.js';
import type { IppPrinterDriver } from '../../../drivers/ipp-printer/driver.js';
import type { Message } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import { requireTool } from '../../helpers/tools.js';
import { PRINTER, pdfBase64, printJob, realPrinterDriver, rejection } from './helpers.js';
import { DBUS_DAEMON, IPPEVEPRINTER, type Ippeve, startIppeveprinter } from './ippeveprinter.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

const words = (text: Message) => english(text);

/**
 * The driver against a real IPP implementation: CUPS's ippeveprinter, with its spool directory
 * kept so every received document can be counted.
 */
const run =
  requireTool(IPPEVEPRINTER, 'the IPP driver is checked against a real IPP printer') &&
  requireTool(DBUS_DAEMON, 'ippeveprinter needs a D-Bus for Avahi');

describe.runIf(run)('ipp-printer driver against ippeveprinter', () => {
  let printer: Ippeve;
  let proxy: TcpProxy;
  const drivers: IppPrinterDriver[] = [];

  function driver(extra: Partial<IppPrinterOptions> = {}, viaProxy = false): IppPrinterDriver {
    const uri = viaProxy ? `ipp://127.0.0.1:${proxy.port}/ipp/print` : printer.uri;
    return realPrinterDriver(drivers, { printers: { [PRINTER]: uri }, cupsQueues: false, ...extra });
  }

  beforeAll(async () => {
    printer = await startIppeveprinter({ pageDelay: 0.05 });
    proxy = await startTcpProxy(printer.port);
  }, 30_000);

  afterAll(async () => {
    for (const d of drivers) await d.close();
    await proxy?.close();
    await printer?.stop();
  });

  it('prints copies; the spool holds the document once, named by the command id', async () => {
    const result = await driver().execute(
      printJob({ copyCount: 2 }, { commandId: 'eve-copies' }),
      recordingExecuteContext(),
    );
    expect(words(result.notes)).toBe(`Printed 2 copies of 1 page on ${PRINTER}`);
    expect(printer.documents().filter((d) => d.jobName === 'eve-copies')).toHaveLength(1);
  });

  it('refuses a type outside its document-format-supported, and sends nothing', async () => {
    const error = await rejection(
      driver().execute(
        printJob(
          { fileType: 'text/plain', fileData: Buffer.from('hello').toString('base64') },
          { commandId: 'eve-text' },
        ),
        recordingExecuteContext(),
      ),
    );
    expect(error.code).toBe('COMMAND_INVALID');
    expect(words(error.notes)).toMatch(
      new RegExp(
        `^${PRINTER} cannot print text documents \\(it takes application/pdf or image/jpeg\\); nothing was printed\\.$`,
      ),
    );
    expect(printer.documents().filter((d) => d.jobName === 'eve-text')).toEqual([]);
  });

  it('out of paper: the job waits, the status says so in words, and it prints once paper is in', async () => {
    const d = driver();
    await printer.setPaperEmpty(true);
    try {
      const running = d.execute(printJob({}, { commandId: 'eve-paper' }), recordingExecuteContext());
      await eventually('the paper warning', () =>
        d.status().warnings.some((w) => words(w).includes('out of paper')),
      );
      expect(d.status().warnings.map(words)).toContain(
        `${PRINTER} is out of paper — load paper into the tray.`,
      );
      await printer.setPaperEmpty(false);
      expect(words((await running).notes)).toBe(`Printed 1 copy of 1 page on ${PRINTER}`);
    } finally {
      await printer.setPaperEmpty(false);
    }
    expect(printer.documents().filter((x) => x.jobName === 'eve-paper')).toHaveLength(1);
  });

  it('a platform cancellation mid-job becomes Cancel-Job; the job ends canceled', async () => {
    const d = driver({ pollIntervalMs: 50 });
    const controller = new AbortController();
    const ectx = recordingExecuteContext(controller.signal);
    const running = rejection(
      d.execute(
        printJob({ copyCount: 20, fileData: pdfBase64(['slow']) }, { commandId: 'eve-cancel' }),
        ectx,
      ),
    );
    await eventually('pages to come out', () => ectx.progressSeen.some((p) => p.fraction > 0.3));
    controller.abort();
    const error = await running;
    expect(error.code).toBe('ABORTED');
    expect(words(error.notes)).toMatch(
      new RegExp(`^Cancelled on ${PRINTER} \\(job \\d+\\); \\d+ of 20 pages had printed\\.$`),
    );
    expect(printer.documents().filter((x) => x.jobName === 'eve-cancel')).toHaveLength(1);
  });

  it('after a crash between Print-Job and its answer, Get-Jobs tells done and nothing is sent twice', async () => {
    proxy.holdPrintJobAnswers(true);
    const ectx = recordingExecuteContext();
    const lost = driver({}, true).execute(printJob({}, { commandId: 'eve-crash' }), ectx);
    lost.catch(() => undefined);
    await proxy.answerHeld();
    proxy.dropHeld();
    proxy.holdPrintJobAnswers(false);
    const checkpoint = ectx.checkpoints[0];
    expect(checkpoint).toMatchObject({ phase: 'sending', jobName: 'eve-crash' });
    const outcome = await driver({}, true).reconcile(
      printJob({}, { commandId: 'eve-crash', checkpoint }),
      new AbortController().signal,
    );
    expect(outcome.outcome).toBe('done');
    expect(outcome.outcome === 'done' && words(outcome.result.notes)).toBe(
      `Printed 1 copy of 1 page on ${PRINTER} (confirmed after a restart)`,
    );
    expect(printer.documents().filter((x) => x.jobName === 'eve-crash')).toHaveLength(1);
  });

  it('a lost answer while running: the job is found by name and followed, not sent again', async () => {
    proxy.holdPrintJobAnswers(true);
    const running = driver({}, true).execute(
      printJob({}, { commandId: 'eve-lost' }),
      recordingExecuteContext(),
    );
    await proxy.answerHeld();
    proxy.holdPrintJobAnswers(false);
    proxy.dropHeld();
    expect(words((await running).notes)).toBe(`Printed 1 copy of 1 page on ${PRINTER}`);
    expect(printer.documents().filter((x) => x.jobName === 'eve-lost')).toHaveLength(1);
  });

  it('a printer that goes away is reported, then used again when it comes back', async () => {
    const d = driver({}, true);
    await proxy.setDown(true);
    const error = await rejection(
      d.execute(printJob({}, { commandId: 'eve-away' }), recordingExecuteContext()),
    );
    expect(error.code).toBe('DEVICE_UNAVAILABLE');
    expect(d.status().connected).toBe(false);
    await proxy.setDown(false);
    await d.execute(printJob({}, { commandId: 'eve-back' }), recordingExecuteContext());
    expect(printer.documents().filter((x) => x.jobName === 'eve-away')).toEqual([]);
    expect(printer.documents().filter((x) => x.jobName === 'eve-back')).toHaveLength(1);
  });
});
