import { customRtFactory } from '../../../../drivers/custom-rt/index.js';
import { memoryStore, testDriverContext } from '../../../helpers/driver-context.js';
import { customRig, fiscalOf, orderItem, payment, saleJob } from '../../custom-rt/helpers.js';
import { startSilentServer } from '../checks.js';
import type { ContractEntry } from '../entry.js';

/**
 * custom-rt against the Custom RT simulator (Custom's XML web service over HTTP): a sale from the
 * bill's order items and payments. A side effect is a fiscal document the printer emitted;
 * `onHandled` tells of it before the answer leaves. Gone: the printer refuses connections.
 */

const items = [
  orderItem('i1', { unitGross: 50, units: 2, rate: 22 }),
  orderItem('i2', { unitGross: 23.45, rate: 10 }),
];
const payments = [payment('p1', 'CreditCardPayment', 123.45)];

export const customEntry: ContractEntry = {
  name: 'custom-rt against its printer simulator',
  kind: 'custom-rt',
  offers: { device: true, effectMoment: true, finished: true },
  rig: async () => {
    const r = await customRig({ items, payments });
    let jobs = 0;
    const receipts = () => fiscalOf(r.sim, 'sale').length;
    return {
      driver: r.restart,
      job: () => saleJob(`custom${++jobs}`),
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
          const options = customRtFactory.configSchema.parse({
            url: `http://127.0.0.1:${server.port}`,
            serialNumber: 'STMTE501091',
            statusIntervalMs: 0,
            documentTimeoutMs: 65_000,
            readTimeoutMs: 60_000,
          });
          const driver = customRtFactory.create(options, testDriverContext({ store: memoryStore() }));
          return { driver, asked: server.asked, dispose: server.close };
        },
      },
      dispose: () => r.close(),
    };
  },
};
