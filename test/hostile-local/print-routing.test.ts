import { afterEach, describe, expect, it } from 'vitest';
import { IppPrinterOptionsSchema } from '../../drivers/ipp-printer/config.js';
import { IppPrinterDriver } from '../../drivers/ipp-printer/driver.js';
import { type IppSimulator, startIppSimulator } from '../../drivers/ipp-printer/simulator/index.js';
import { printJob, rejection } from '../drivers/ipp-printer/helpers.js';
import { memoryStore, recordingExecuteContext, testDriverContext } from '../helpers/driver-context.js';

/**
 * Issue 27, finding 7 (where documents go): `cupsQueues` was on by default, so a platform
 * `PrinterName` the config does not map went to *any* CUPS queue of that name — including the
 * queues cups-browsed creates by itself from printers announcing on the LAN. A device on the
 * hotel's network announcing "Guest Laser" received the registration cards meant for a printer
 * of that name that the config never listed.
 *
 * Now documents go only where the config says: with the default options an unmapped name ends in
 * COMMAND_INVALID naming the known printers, and nothing reaches any queue. The "CUPS" here is the
 * IPP simulator answering at `cupsUrl` with a queue of the wanted name, as cupsd would after
 * cups-browsed added it.
 */

let sim: IppSimulator | undefined;
let driver: IppPrinterDriver | undefined;
afterEach(async () => {
  await driver?.close();
  await sim?.close();
  driver = undefined;
  sim = undefined;
});

describe('documents go only where configured', () => {
  it('with the default options, a name the config does not map reaches no CUPS queue, even one of that name', async () => {
    sim = await startIppSimulator({ printers: [{ name: 'Front Desk' }, { name: 'Guest Laser', pageMs: 1 }] });
    const options = IppPrinterOptionsSchema.parse({
      printers: { 'Front Desk': sim.printerUri('Front Desk') },
      cupsUrl: `ipp://${new URL(sim.printerUri('Front Desk')).host}`,
      statusIntervalMs: 0,
      offlineWaitMs: 0,
    });
    driver = new IppPrinterDriver(options, testDriverContext({ store: memoryStore() }));
    const error = await rejection(
      driver.execute(printJob({ printerName: 'Guest Laser' }), recordingExecuteContext()),
    );
    expect(error.code).toBe('COMMAND_INVALID');
    expect(sim.spooled()).toEqual([]);
    // The configured printer still prints.
    await driver.execute(printJob({ printerName: 'Front Desk' }), recordingExecuteContext());
    expect(sim.spooled().map((d) => d.printer)).toEqual(['Front Desk']);
  });
});
