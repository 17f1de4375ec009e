import { customRtFactory } from '../../../../drivers/custom-rt/index.js';
import { customRig, fiscalOf, SERIAL } from '../../custom-rt/helpers.js';
import { rtPrinterEntry } from './rt-printer.js';

/**
 * custom-rt against the Custom RT simulator (Custom's XML web service over HTTP): a sale from the
 * bill's order items and payments. A side effect is a fiscal document the printer emitted;
 * `onHandled` tells of it before the answer leaves. Gone: the printer refuses connections.
 */
export const customEntry = rtPrinterEntry({
  kind: 'custom-rt',
  rig: (bill) => customRig(bill),
  receipts: (sim) => fiscalOf(sim, 'sale').length,
  factory: customRtFactory,
  silentOptions: { serialNumber: SERIAL, documentTimeoutMs: 65_000 },
});
