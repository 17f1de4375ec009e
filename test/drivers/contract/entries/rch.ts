import { rchRtFactory } from '../../../../drivers/rch-rt/index.js';
import { printedOf, rchRig, SERIAL } from '../../rch-rt/helpers.js';
import { rtPrinterEntry } from './rt-printer.js';

/**
 * rch-rt against the RCH RT simulator (RCH's web service over HTTP): a sale from the bill's order
 * items and payments. A side effect is a document the printer emitted; `onHandled` tells of it
 * before the answer leaves. Gone: the printer refuses connections.
 */
export const rchEntry = rtPrinterEntry({
  kind: 'rch-rt',
  rig: (bill) => rchRig(bill),
  receipts: (sim) => printedOf(sim, 'sale').length,
  onEffect: (sim, listener) => sim.onHandled((h) => h.printed && listener()),
  factory: rchRtFactory,
  silentOptions: { serialNumber: SERIAL, documentTimeoutMs: 65_000 },
});
