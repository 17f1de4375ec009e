import type { Driver, DriverFactory } from '../../../../src/drivers-api/types.js';
import { memoryStore, testDriverContext } from '../../../helpers/driver-context.js';
import { orderItem, payment, saleJob } from '../../epson-fpmate/helpers.js';
import { startSilentServer } from '../checks.js';
import type { ContractEntry } from '../entry.js';

/**
 * What every RT family's contract entry shares (Epson, Custom, RCH): a sale of one bill through the
 * family's rig on its printer simulator over HTTP. A side effect is a sale the printer emitted, read
 * from the simulator's own record; gone: the printer refuses connections; silent: a loopback server
 * that takes the request and never answers.
 */

/** The contract's bill: two lines at two rates, paid by card. */
export const CONTRACT_BILL = {
  items: [
    orderItem('i1', { unitGross: 50, units: 2, rate: 22 }),
    orderItem('i2', { unitGross: 23.45, rate: 10 }),
  ],
  payments: [payment('p1', 'CreditCardPayment', 123.45)],
};

/** What the entry needs of a family's printer simulator. */
export interface RtPrinterSimulator {
  setFault(name: 'refused', on: boolean): Promise<void>;
  /** Tells of each request the printer handled, before its answer leaves. */
  onHandled(listener: () => void): () => void;
}

export interface RtPrinterFamily<S extends RtPrinterSimulator, C> {
  kind: string;
  /** The family's test rig (`test/drivers/<family>/helpers.ts`) on the contract's bill. */
  rig(bill: typeof CONTRACT_BILL): Promise<{ sim: S; restart(): Driver; close(): Promise<void> }>;
  /** How many sales the simulator's record holds. */
  receipts(sim: S): number;
  /**
   * Calls `listener` as the printer takes a sale; by default, when a handled request leaves one
   * more sale on the record.
   */
  onEffect?(sim: S, listener: () => void): () => void;
  factory: DriverFactory<C>;
  /** The family's own options for a silent printer: long document timeouts, so only the signal ends a wait. */
  silentOptions: Record<string, unknown>;
}

export function rtPrinterEntry<S extends RtPrinterSimulator, C>(
  family: RtPrinterFamily<S, C>,
): ContractEntry {
  return {
    name: `${family.kind} against its printer simulator`,
    kind: family.kind,
    offers: { device: true, effectMoment: true, finished: true },
    rig: async () => {
      const r = await family.rig(CONTRACT_BILL);
      let jobs = 0;
      const receipts = () => family.receipts(r.sim);
      return {
        driver: r.restart,
        job: () => saleJob(`${family.kind}-${++jobs}`),
        units: 1,
        effects: receipts,
        finished: receipts,
        onEffect: (listener) => {
          if (family.onEffect) return family.onEffect(r.sim, listener);
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
            const options = family.factory.configSchema.parse({
              url: `http://127.0.0.1:${server.port}`,
              statusIntervalMs: 0,
              readTimeoutMs: 60_000,
              ...family.silentOptions,
            });
            const driver = family.factory.create(options, testDriverContext({ store: memoryStore() }));
            return { driver, asked: server.asked, dispose: server.close };
          },
        },
        dispose: () => r.close(),
      };
    },
  };
}
