import {
  type CustomRtOptions,
  customRtFactory,
  simulatedProgramming,
} from '../../../drivers/custom-rt/index.js';
import {
  type CustomRtSimulator,
  type CustomRtSimulatorOptions,
  startCustomRtSimulator,
} from '../../../drivers/custom-rt/simulator/index.js';
import type { RigContext } from '../../helpers/driver-context.js';
import { type RtRig, rtRig } from '../fiscal-it/rt-rig.js';

export { orderItem, payloadJob, payment, refundJob, saleJob } from '../epson-fpmate/helpers.js';

export const SERIAL = 'STMTE501091';

export type CustomRig = RtRig<CustomRtSimulator, CustomRtOptions>;

/**
 * A simulated Custom printer and a Custom driver on it: short timeouts, no background polls.
 * `programmed`: the printer's VAT slots and departments as the driver's options expect them
 * (simulatedProgramming), as a technician programs a real one; otherwise the simulator's own.
 */
export function customRig(
  o: RigContext & {
    driver?: Record<string, unknown>;
    sim?: Partial<CustomRtSimulatorOptions>;
    programmed?: boolean;
  } = {},
): Promise<CustomRig> {
  return rtRig(
    customRtFactory,
    SERIAL,
    (options) =>
      startCustomRtSimulator({
        host: '127.0.0.1',
        port: 0,
        serial: SERIAL,
        ...(o.programmed ? simulatedProgramming(options) : {}),
        ...o.sim,
      }),
    o,
  );
}

export const fiscalOf = (
  sim: CustomRtSimulator,
  kind: 'sale' | 'refund' | 'void' | 'z-report' | 'x-report',
) => sim.printed.filter((d) => d.kind === kind);

/**
 * Loses the answer to the next fiscal document only: armed once the driver's last read before it
 * (directIO 1017) is handled, disarmed once the document is (the simulator reads its faults
 * before its listeners run, so each switch takes the next exchange).
 */
export function loseNextDocumentAnswer(sim: CustomRtSimulator): void {
  let armed = false;
  const off = sim.onHandled((request) => {
    if (!armed && request.root === 'printerCommand' && sim.directIo.at(-1) === '1017') {
      armed = true;
      void sim.setFault('loseAnswer', true);
    } else if (armed && request.root === 'printerFiscalReceipt') {
      off();
      void sim.setFault('loseAnswer', false);
    }
  });
}
