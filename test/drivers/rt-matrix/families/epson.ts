import type { ManualClock } from '../../../../src/clock.js';
import { rig as epsonRig } from '../../epson-fpmate/helpers.js';
import { type MatrixFamily, type MatrixRig, matrixRigOf, matrixRigOptions } from '../family.js';

const SERIAL = '99MEY123456';

/** Why fpmate has no cell that needs a document held open between requests. */
const ONE_REQUEST =
  'fpmate takes a whole fiscal document in one printerFiscalReceipt request and answers after it (Epson Fiscal ePOS-Print XML; fiskaltrust scu-it EpsonRTPrinterSCU sends each receipt as one request): no document stays open between requests, and no request id exists to be left last';

/**
 * Epson (Fiscal ePOS-Print XML over fpmate.cgi) against its simulator: its one witness is the
 * last document (directIO 1387) against the baseline.
 */
export const epsonMatrix: MatrixFamily = {
  kind: 'epson-fpmate',
  notApplicable: {
    'own id last, document open': ONE_REQUEST,
    'another till’s open document': ONE_REQUEST,
    'another till’s document ends in time': ONE_REQUEST,
    'status 21 mid-send': ONE_REQUEST,
    'status 76 after print':
      'a Custom status code (XML protocol rev 2.00 p.137); fpmate answers LAN_TIME_OUT when its fiscal unit is busy, which the busy cell covers',
  },
  busy: {
    expect: 'STATE_UNKNOWN',
    source:
      'fiskaltrust scu-it Models/ErrorInfoFactory.cs: LAN_TIME_OUT is fpmate losing its fiscal unit while processing the document, so part of it may be printed; a printer that stays busy cannot be read, so the outcome is unknown',
  },
  rig: async (clock: ManualClock, o = {}): Promise<MatrixRig> => {
    const shared = matrixRigOptions(clock, o);
    const timeouts = { printerTimeoutMs: 4_000, clientTimeoutMs: 5_000 };
    const r = await epsonRig({
      ...shared,
      sim: { clock, serial: SERIAL },
      driver: { ...shared.driver, ...timeouts },
    });
    const sim = r.sim;
    return matrixRigOf(r, sim, SERIAL, {
      loseAnswers: (on) => sim.setFault('dropAfterPrint', on),
      unreadableWitness: () => sim.setFault('lastDocUnreadable', true),
      busy: (on) => sim.setFault('busy', on),
    });
  },
};
