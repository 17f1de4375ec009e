import { epsonFpmateFactory } from '../../../../drivers/epson-fpmate/index.js';
import { printedOf, rig } from '../../epson-fpmate/helpers.js';
import { rtPrinterEntry } from './rt-printer.js';

/**
 * epson-fpmate against its RT printer simulator (fpmate.cgi over HTTP): a sale from the bill's
 * order items and payments. A side effect is a fiscal document the printer emitted; `onHandled`
 * tells of it before the printer's answer leaves. Gone: the printer refuses connections.
 */
export const epsonEntry = rtPrinterEntry({
  kind: 'epson-fpmate',
  rig: (bill) => rig(bill),
  receipts: (sim) => printedOf(sim, 'sale').length,
  factory: epsonFpmateFactory,
  silentOptions: { printerTimeoutMs: 60_000, clientTimeoutMs: 65_000 },
});
