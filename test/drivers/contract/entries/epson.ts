import { epsonFpmateFactory } from '../../../../drivers/epson-fpmate/index.js';
import { memoryStore, testDriverContext } from '../../../helpers/driver-context.js';
import { orderItem, payment, printedOf, rig, saleJob } from '../../epson-fpmate/helpers.js';
import { startSilentServer } from '../checks.js';
import type { ContractEntry } from '../entry.js';

/**
 * epson-fpmate against its RT printer simulator (fpmate.cgi over HTTP): a sale from the bill's
 * order items and payments. A side effect is a fiscal document the printer emitted; `onHandled`
 * tells of it before the printer's answer leaves. Gone: the printer refuses connections.
 */

const items = [
  orderItem('i1', { unitGross: 50, units: 2, rate: 22 }),
  orderItem('i2', { unitGross: 23.45, rate: 10 }),
];
const payments = [payment('p1', 'CreditCardPayment', 123.45)];

export const epsonEntry: ContractEntry = {
  name: 'epson-fpmate against its printer simulator',
  kind: 'epson-fpmate',
  offers: { device: true, effectMoment: true, finished: true },
  rig: async () => {
    const r = await rig({ items, payments });
    let jobs = 0;
    const receipts = () => printedOf(r.sim, 'sale').length;
    return {
      driver: r.restart,
      job: () => saleJob(`epson-${++jobs}`),
      units: 1,
      effects: receipts,
      finished: receipts,
      onEffect: (listener) => {
        let seen = receipts();
        return r.sim.onHandled(() => {
          if (receipts() > seen) listener();
          seen = receipts();
        });
      },
      device: {
        gone: () => r.sim.setFault('refused', true),
        back: () => r.sim.setFault('refused', false),
        silent: async () => {
          const server = await startSilentServer();
          const options = epsonFpmateFactory.configSchema.parse({
            url: `http://127.0.0.1:${server.port}`,
            statusIntervalMs: 0,
            printerTimeoutMs: 60_000,
            clientTimeoutMs: 65_000,
            readTimeoutMs: 60_000,
          });
          const driver = epsonFpmateFactory.create(options, testDriverContext({ store: memoryStore() }));
          return { driver, asked: server.asked, dispose: server.close };
        },
      },
      dispose: () => r.close(),
    };
  },
};
