import { epsonFpmateFactory } from '../../../../drivers/epson-fpmate/index.js';
import { startFpmateSimulator } from '../../../../drivers/epson-fpmate/simulator/index.js';
import type { ManualClock } from '../../../../src/clock.js';
import type { Driver } from '../../../../src/drivers-api/types.js';
import { memoryStore, testDriverContext } from '../../../helpers/driver-context.js';
import { orderItem, payment, QUICK_DRIVER, refundJob, saleJob } from '../../epson-fpmate/helpers.js';
import { type MatrixFamily, type MatrixRig, outageAware } from '../family.js';

const SERIAL = '99MEY123456';
const items = [
  orderItem('i1', { unitGross: 10, units: 2, rate: 22 }),
  orderItem('i2', { unitGross: 5, rate: 10 }),
];
const payments = [payment('p1', 'CreditCardPayment', 25)];

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
    const sim = await startFpmateSimulator({ host: '127.0.0.1', port: 0, serial: SERIAL, clock });
    const store = memoryStore();
    const options = epsonFpmateFactory.configSchema.parse({
      url: sim.url,
      ...QUICK_DRIVER,
      printerTimeoutMs: 4_000,
      clientTimeoutMs: 5_000,
      readTimeoutMs: 5_000,
      busyRetries: 1,
      settleUnansweredForMinutes: o.settleMinutes ?? 0,
      dailyClosure: { enabled: false },
    });
    const drivers: Driver[] = [];
    const make = () => {
      const driver = epsonFpmateFactory.create(
        options,
        outageAware(testDriverContext({ store, clock, orderItems: items, payments }), o.billRead),
      );
      drivers.push(driver);
      return driver;
    };
    const afterNextDocument = (then: () => void) => {
      const off = sim.onHandled((r) => {
        if (r.root !== 'printerFiscalReceipt' || !r.printed) return;
        off();
        then();
      });
    };
    return {
      driver: make(),
      restart: make,
      sale: (id) => saleJob(id),
      voidOf: (id, printed) => {
        const job = refundJob(
          {
            sequence: String(printed.z),
            receiptNumber: String(printed.doc),
            dateTimeUtc: new Date(printed.at).toISOString(),
          },
          SERIAL,
          id,
        );
        if (job.data.kind === 'fiscal') job.data.fiscal.bill.correctionType = 'Cancellation';
        return job;
      },
      documents: (kind) =>
        sim.printed
          .filter((d) => d.kind === kind)
          .map((d) => ({ z: d.z, doc: d.doc, at: d.at, lines: d.lines.length })),
      loseNextAnswer: () => {
        void sim.setFault('dropAfterPrint', true);
        afterNextDocument(() => void sim.setFault('dropAfterPrint', false));
      },
      afterNextDocument,
      slowAnswers: (ms) => sim.setFault('slow', { ms }),
      reboot: () => sim.reboot(),
      unreadableWitness: () => sim.setFault('lastDocUnreadable', true),
      busy: (on) => sim.setFault('busy', on),
      async close() {
        for (const d of drivers) await d.close();
        await sim.close();
      },
    };
  },
};
