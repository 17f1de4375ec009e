import { type EpsonFpmateOptions, epsonFpmateFactory } from '../../../drivers/epson-fpmate/index.js';
import {
  type FpmateSimulator,
  type FpmateSimulatorOptions,
  startFpmateSimulator,
} from '../../../drivers/epson-fpmate/simulator.js';
import type { Clock } from '../../../src/clock.js';
import type { CommandData, FiscalBill, FiscalJobData } from '../../../src/connector/model.js';
import {
  OrderItemSchema,
  PaymentSchema,
  type WireOrderItem,
  type WirePayment,
} from '../../../src/connector/wire.js';
import type { DeviceStore, Driver, Job } from '../../../src/drivers-api/types.js';
import { jobFor, memoryStore, testDriverContext } from '../../helpers/driver-context.js';

/** An order item of `units` × `unitGross` euro at `rate` % VAT, shaped like orderItems/getAll. */
export function orderItem(
  id: string,
  options: {
    unitGross: number;
    units?: number;
    rate?: number;
    type?: string;
    notes?: string;
    canceled?: boolean;
  },
): WireOrderItem {
  const units = options.units ?? 1;
  const rate = options.rate ?? 22;
  const value = (gross: number) => {
    const net = Math.round((gross / (1 + rate / 100)) * 100) / 100;
    return {
      Currency: 'EUR',
      NetValue: net,
      GrossValue: gross,
      TaxValues: [{ Code: `IT-${rate}`, Value: Math.round((gross - net) * 100) / 100 }],
    };
  };
  return OrderItemSchema.parse({
    Id: id,
    UnitCount: units,
    UnitAmount: value(options.unitGross),
    Amount: value(Math.round(options.unitGross * units * 100) / 100),
    Type: options.type ?? 'ProductOrder',
    Notes: options.notes ?? null,
    CanceledUtc: options.canceled ? '2026-11-21T09:00:00Z' : null,
  });
}

/** A payment as payments/getAll gives it: a payment of 100 € has Amount −100. */
export function payment(id: string, type: string, euro: number, state = 'Charged'): WirePayment {
  return PaymentSchema.parse({
    Id: id,
    Type: type,
    State: state,
    Amount: { Currency: 'EUR', GrossValue: -euro, NetValue: -euro },
  });
}

const bill = (id: string): FiscalBill => ({ id, number: '1001', name: 'Bill 1001' });

export function fiscalData(
  document: FiscalJobData['document'],
  overrides: Partial<FiscalJobData> = {},
): CommandData {
  return {
    kind: 'fiscal',
    fiscal: { machineSettings: { value: {} }, bill: bill('bill-1'), document, ...overrides },
  };
}

export function saleJob(commandId = 'cmd-sale', overrides: Partial<FiscalJobData> = {}): Job {
  return jobFor(fiscalData({ type: 'data', isRefund: false }, overrides), { commandId });
}

export function refundJob(
  rebated: { receiptNumber?: string; sequence?: string; dateTimeUtc?: string },
  serial: string | undefined,
  commandId = 'cmd-refund',
): Job {
  const document: FiscalJobData['document'] = { type: 'data', isRefund: true, rebated };
  if (serial) document.printerSerialNumber = serial;
  return jobFor(fiscalData(document), { commandId });
}

export function payloadJob(xml: string, commandId = 'cmd-payload'): Job {
  return jobFor(fiscalData({ type: 'payload', base64: Buffer.from(xml, 'utf8').toString('base64') }), {
    commandId,
  });
}

export interface Rig {
  sim: FpmateSimulator;
  store: DeviceStore;
  options: EpsonFpmateOptions;
  driver: Driver;
  /** A fresh driver on the same store (an agent restart). */
  restart(): Driver;
  close(): Promise<void>;
}

export interface RigOptions {
  items?: WireOrderItem[];
  payments?: WirePayment[];
  driver?: Record<string, unknown>;
  sim?: FpmateSimulatorOptions;
  clock?: Clock;
  fetch?: typeof fetch;
}

/** A simulator and a driver bound to it, with short timeouts and no background polling. */
export async function rig(options: RigOptions = {}): Promise<Rig> {
  const sim = await startFpmateSimulator({ host: '127.0.0.1', port: 0, ...options.sim });
  const store = memoryStore();
  const parsed = epsonFpmateFactory.configSchema.parse({
    url: sim.url,
    statusIntervalMs: 0,
    printerTimeoutMs: 400,
    clientTimeoutMs: 800,
    readTimeoutMs: 800,
    busyRetryDelayMs: 5,
    ...options.driver,
  });
  const drivers: Driver[] = [];
  const make = () => {
    const ctx = testDriverContext({
      store,
      orderItems: options.items ?? [],
      payments: options.payments ?? [],
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const driver = epsonFpmateFactory.create(parsed, ctx);
    drivers.push(driver);
    return driver;
  };
  const driver = make();
  return {
    sim,
    store,
    options: parsed,
    driver,
    restart: make,
    async close() {
      for (const d of drivers) await d.close();
      await sim.close();
    },
  };
}

/** Documents of a kind the simulator printed. */
export function printedOf(
  sim: FpmateSimulator,
  kind: 'sale' | 'refund' | 'void' | 'non-fiscal' | 'z-report',
) {
  return sim.printed.filter((d) => d.kind === kind);
}

/** A fetch that runs `after` once the n-th fiscal receipt POST has settled. */
export function fetchThatAfterReceipt(n: number, after: () => Promise<void>): typeof fetch {
  let seen = 0;
  return async (input, init) => {
    const isReceipt = typeof init?.body === 'string' && init.body.includes('<printerFiscalReceipt>');
    try {
      return await fetch(input, init);
    } finally {
      if (isReceipt && ++seen === n) await after();
    }
  };
}
