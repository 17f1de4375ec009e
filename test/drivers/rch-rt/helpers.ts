import { type RchRtOptions, rchRtFactory, simulatedProgramming } from '../../../drivers/rch-rt/index.js';
import {
  type RchDocument,
  type RchRtSimulator,
  type RchRtSimulatorOptions,
  startRchRtSimulator,
} from '../../../drivers/rch-rt/simulator/index.js';
import type { RigContext } from '../../helpers/driver-context.js';
import { type RtRig, rtRig } from '../fiscal-it/rt-rig.js';

export { orderItem, payment, refundJob, saleJob } from '../epson-fpmate/helpers.js';

export const SERIAL = '72MS0012345';

export type RchRig = RtRig<RchRtSimulator, RchRtOptions>;

/** A simulated RCH printer, programmed as the driver's options expect, and an RCH driver on it. */
export function rchRig(
  o: RigContext & { driver?: Record<string, unknown>; sim?: Partial<RchRtSimulatorOptions> } = {},
): Promise<RchRig> {
  return rtRig(
    rchRtFactory,
    SERIAL,
    (options) =>
      startRchRtSimulator({
        host: '127.0.0.1',
        port: 0,
        serial: SERIAL,
        lastZ: 1160,
        ...simulatedProgramming(options),
        ...(o.clock ? { clock: o.clock } : {}),
        ...o.sim,
      }),
    o,
  );
}

/** The fiscal documents the web service printed (another till's apart). */
export const printedOf = (sim: RchRtSimulator, kind: RchDocument['kind']) =>
  sim.documents.filter((d) => d.kind === kind && d.terminal === 'web-service');

/** How the platform names a printed document as a refund's or a void's original (its Z, number and date). */
export const rebatedOf = (doc: Pick<RchDocument, 'z' | 'number' | 'at'>) => ({
  sequence: String(doc.z),
  receiptNumber: String(doc.number),
  dateTimeUtc: new Date(doc.at).toISOString(),
});
