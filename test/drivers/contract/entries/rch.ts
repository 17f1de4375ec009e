import { rchRtFactory } from '../../../../drivers/rch-rt/index.js';
import { memoryStore, testDriverContext } from '../../../helpers/driver-context.js';
import { orderItem, payment, printedOf, rchRig, SERIAL, saleJob } from '../../rch-rt/helpers.js';
import { startSilentServer } from '../checks.js';
import type { ContractEntry } from '../entry.js';

/**
 * rch-rt against the RCH RT simulator (RCH's web service over HTTP): a sale from the bill's order
 * items and payments. A side effect is a document the printer emitted; `onHandled` tells of it
 * before the answer leaves. Gone: the printer refuses connections.
 */

const items = [
  orderItem('i1', { unitGross: 50, units: 2, rate: 22 }),
  orderItem('i2', { unitGross: 23.45, rate: 10 }),
];
const payments = [payment('p1', 'CreditCardPayment', 123.45)];

export const rchEntry: ContractEntry = {
  name: 'rch-rt against its printer simulator',
  kind: 'rch-rt',
  offers: { device: true, effectMoment: true, finished: true },
  rig: async () => {
    const r = await rchRig({ items, payments });
    let jobs = 0;
    const receipts = () => printedOf(r.sim, 'sale').length;
    return {
      driver: r.restart,
      job: () => saleJob(`rch${++jobs}`),
      units: 1,
      effects: receipts,
      finished: receipts,
      onEffect: (listener) => r.sim.onHandled((h) => h.printed && listener()),
      device: {
        gone: () => r.sim.setFault('refused', true),
        back: () => r.sim.setFault('refused', false),
        silent: async () => {
          const server = await startSilentServer();
          const options = rchRtFactory.configSchema.parse({
            url: `http://127.0.0.1:${server.port}`,
            serialNumber: SERIAL,
            statusIntervalMs: 0,
            documentTimeoutMs: 65_000,
            readTimeoutMs: 60_000,
          });
          const driver = rchRtFactory.create(options, testDriverContext({ store: memoryStore() }));
          return { driver, asked: server.asked, dispose: server.close };
        },
      },
      dispose: () => r.close(),
    };
  },
};
