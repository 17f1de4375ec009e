import { type RchRtOptions, rchRtFactory, simulatedProgramming } from '../../../drivers/rch-rt/index.js';
import {
  type RchDocument,
  type RchRtSimulator,
  type RchRtSimulatorOptions,
  startRchRtSimulator,
} from '../../../drivers/rch-rt/simulator/index.js';
import type { Clock } from '../../../src/clock.js';
import type { WireOrderItem, WirePayment } from '../../../src/connector/wire.js';
import type { DeviceStore, Driver, DriverContext } from '../../../src/drivers-api/types.js';
import { memoryStore, testDriverContext } from '../../helpers/driver-context.js';

export { orderItem, payment, refundJob, saleJob } from '../epson-fpmate/helpers.js';

export const SERIAL = '72MS0012345';

export interface RchRig {
  sim: RchRtSimulator;
  store: DeviceStore;
  options: RchRtOptions;
  driver: Driver;
  restart(): Driver;
  close(): Promise<void>;
}

/** Driver options for tests: short timeouts, no background polls, no closure schedule. */
export const QUICK_RCH = {
  serialNumber: SERIAL,
  statusIntervalMs: 0,
  documentTimeoutMs: 2_000,
  reportTimeoutMs: 2_000,
  readTimeoutMs: 1_000,
  busyRetryDelayMs: 5,
  settleUnansweredForMinutes: 0,
  dailyClosure: { enabled: false },
};

/** A simulated RCH printer, programmed as the driver's defaults expect, and an RCH driver on it. */
export async function rchRig(
  o: {
    items?: WireOrderItem[];
    payments?: WirePayment[];
    driver?: Record<string, unknown>;
    sim?: Partial<RchRtSimulatorOptions>;
    clock?: Clock;
    /** Wraps each driver's context (a platform outage, say). */
    ctx?: (ctx: DriverContext) => DriverContext;
  } = {},
): Promise<RchRig> {
  const options = rchRtFactory.configSchema.parse({ url: 'http://127.0.0.1:1', ...QUICK_RCH, ...o.driver });
  const sim = await startRchRtSimulator({
    host: '127.0.0.1',
    port: 0,
    serial: SERIAL,
    lastZ: 1160,
    ...simulatedProgramming(options),
    ...(o.clock ? { clock: o.clock } : {}),
    ...o.sim,
  });
  options.url = sim.url;
  const store = memoryStore();
  const drivers: Driver[] = [];
  const make = () => {
    const ctx = testDriverContext({
      store,
      orderItems: o.items ?? [],
      payments: o.payments ?? [],
      ...(o.clock ? { clock: o.clock } : {}),
    });
    const driver = rchRtFactory.create(options, o.ctx ? o.ctx(ctx) : ctx);
    drivers.push(driver);
    return driver;
  };
  const driver = make();
  return {
    sim,
    store,
    options,
    driver,
    restart: make,
    async close() {
      for (const d of drivers) await d.close();
      await sim.close();
    },
  };
}

/** The fiscal documents the web service printed (another till's apart). */
export const printedOf = (sim: RchRtSimulator, kind: RchDocument['kind']) =>
  sim.documents.filter((d) => d.kind === kind && d.terminal === 'web-service');
