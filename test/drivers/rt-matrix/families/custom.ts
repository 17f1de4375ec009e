import { customRtFactory } from '../../../../drivers/custom-rt/index.js';
import { startCustomRtSimulator } from '../../../../drivers/custom-rt/simulator/index.js';
import type { ManualClock } from '../../../../src/clock.js';
import type { Driver } from '../../../../src/drivers-api/types.js';
import { memoryStore, testDriverContext } from '../../../helpers/driver-context.js';
import { orderItem, payment, refundJob, saleJob } from '../../epson-fpmate/helpers.js';
import { type MatrixFamily, type MatrixRig, outageAware } from '../family.js';

const SERIAL = 'STMTE501091';
const items = [
  orderItem('i1', { unitGross: 10, units: 2, rate: 22 }),
  orderItem('i2', { unitGross: 5, rate: 10 }),
];
const payments = [payment('p1', 'CreditCardPayment', 25)];

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
    const sim = await startCustomRtSimulator({ host: '127.0.0.1', port: 0, serial: SERIAL, clock });
    const store = memoryStore();
    const options = customRtFactory.configSchema.parse({
      url: sim.url,
      serialNumber: SERIAL,
      statusIntervalMs: 0,
      documentTimeoutMs: 5_000,
      reportTimeoutMs: 5_000,
      readTimeoutMs: 5_000,
      busyRetries: 1,
      busyRetryDelayMs: 5,
      settleUnansweredForMinutes: o.settleMinutes ?? 0,
      dailyClosure: { enabled: false },
    });
    const drivers: Driver[] = [];
    const make = () => {
      const driver = customRtFactory.create(
        options,
        outageAware(testDriverContext({ store, clock, orderItems: items, payments }), o.billRead),
      );
      drivers.push(driver);
      return driver;
    };
    const once = (fault: 'loseAnswer') => {
      const off = sim.onHandled((r) => {
        if (r.root !== 'printerFiscalReceipt' || !r.printed) return;
        off();
        void sim.setFault(fault, false);
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
        void sim.setFault('loseAnswer', true);
        once('loseAnswer');
      },
      afterNextDocument: (then) => {
        const off = sim.onHandled((r) => {
          if (r.root !== 'printerFiscalReceipt' || !r.printed) return;
          off();
          then();
        });
      },
      slowAnswers: (ms) => sim.setFault('slow', { ms }),
      reboot: () => sim.reboot(),
      unreadableWitness: () => sim.setFault('garbled1017', true),
      busy: (on) => sim.setFault('busy', on ? { status: 213 } : false),
      shared: {
        refuseEnd: (status) => sim.setFault('refuseEnd', status ? { status } : false),
        openForeign: () => sim.openForeignDocument('BARTILL42B'),
        endForeign: () => sim.endForeignDocument(),
        foreignResets: () => sim.foreignResets,
        foreignOpensBeforeNextDocument: () => {
          const off = sim.onHandled((r) => {
            if (r.root !== 'printerCommand' || sim.directIo.at(-1) !== '1017') return;
            off();
            sim.openForeignDocument('BARTILL43B');
          });
        },
        consolidating: (on) => sim.setFault('consolidating', on),
      },
      async close() {
        for (const d of drivers) await d.close();
        await sim.close();
      },
    };
  },
};
