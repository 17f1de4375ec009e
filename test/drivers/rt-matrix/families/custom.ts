import type { ManualClock } from '../../../../src/clock.js';
import { customRig, SERIAL } from '../../custom-rt/helpers.js';
import { type MatrixFamily, type MatrixRig, matrixRigOf, matrixRigOptions } from '../family.js';

/**
 * Custom RT (XML protocol rev 2.00 over HTTP) against its simulator: `lastIdCmd` and the counters
 * (getInfo, directIO 1017) are its witnesses; another till's document is a real state of the
 * device (status 21, XML p.133).
 */
export const customMatrix: MatrixFamily = {
  kind: 'custom-rt',
  notApplicable: {},
  busy: {
    expect: 'DEVICE_BUSY',
    source:
      'XML protocol rev 2.00 p.137: 75/76 consolidating, 213 the tax agency: the begin node is refused and nothing is taken (errors.ts)',
  },
  rig: async (clock: ManualClock, o = {}): Promise<MatrixRig> => {
    const shared = matrixRigOptions(clock, o);
    const r = await customRig({
      ...shared,
      sim: { clock },
      driver: { ...shared.driver, documentTimeoutMs: 5_000 },
    });
    const sim = r.sim;
    return matrixRigOf(r, sim, SERIAL, {
      loseAnswers: (on) => sim.setFault('loseAnswer', on),
      unreadableWitness: () => sim.setFault('garbled1017', true),
      busy: (on) => sim.setFault('busy', on ? { status: 213 } : false),
      shared: {
        refuseEnd: (status) => sim.setFault('refuseEnd', status ? { status } : false),
        openForeign: () => sim.openForeignDocument('BARTILL42B'),
        endForeign: () => sim.endForeignDocument(),
        foreignResets: () => sim.foreignResets,
        foreignOpensBeforeNextDocument: () => {
          const off = sim.onHandled((req) => {
            if (req.root !== 'printerCommand' || sim.directIo.at(-1) !== '1017') return;
            off();
            sim.openForeignDocument('BARTILL43B');
          });
        },
        consolidating: (on) => sim.setFault('consolidating', on),
      },
    });
  },
};
