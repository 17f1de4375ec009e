import { type EpsonFpmateOptions, epsonFpmateFactory } from '../../../drivers/epson-fpmate/index.js';
import {
  type FpmateSimulator,
  type FpmateSimulatorOptions,
  startFpmateSimulator,
} from '../../../drivers/epson-fpmate/simulator/index.js';
import { envelope } from '../../../drivers/epson-fpmate/xml-build.js';
import type { CommandData, FiscalBill, FiscalJobData } from '../../../src/connector/model.js';
import {
  OrderItemSchema,
  PaymentSchema,
  type WireOrderItem,
  type WirePayment,
} from '../../../src/connector/wire.js';
import type { DeviceStatus, DeviceStore, Driver, Job } from '../../../src/drivers-api/types.js';
import { isMessage, type Message } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { createHttpClient } from '../../../src/transport/http.js';
import { driversOn, jobFor, type RigContext, recordingExecuteContext } from '../../helpers/driver-context.js';

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

/** Runs the fiscal-data command `document` (with `overrides`) through `driver`, as the core runs a job. */
export function printData(
  driver: Driver,
  commandId: string,
  document: FiscalJobData['document'],
  overrides: Partial<FiscalJobData> = {},
) {
  return driver.execute(jobFor(fiscalData(document, overrides), { commandId }), recordingExecuteContext());
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

export interface RigOptions extends RigContext {
  driver?: Record<string, unknown>;
  sim?: FpmateSimulatorOptions;
}

/** Driver options for tests: short timeouts and retries, no background status polling. */
export const QUICK_DRIVER = {
  statusIntervalMs: 0,
  printerTimeoutMs: 400,
  clientTimeoutMs: 800,
  readTimeoutMs: 800,
  busyRetryDelayMs: 5,
};

/** A simulator and a driver bound to it, with short timeouts and no background polling. */
export async function rig(options: RigOptions = {}): Promise<Rig> {
  const sim = await startFpmateSimulator({ host: '127.0.0.1', port: 0, ...options.sim });
  const parsed = epsonFpmateFactory.configSchema.parse({
    url: sim.url,
    ...QUICK_DRIVER,
    // On the system clock a schedule could fire mid-test; closure tests turn it on with a manual clock.
    dailyClosure: { enabled: false },
    ...options.driver,
  });
  return { sim, options: parsed, ...driversOn(epsonFpmateFactory, parsed, options, sim) };
}

/** Documents of a kind the simulator printed. */
export function printedOf(
  sim: FpmateSimulator,
  kind: 'sale' | 'refund' | 'void' | 'non-fiscal' | 'z-report' | 'x-report',
) {
  return sim.printed.filter((d) => d.kind === kind);
}

/**
 * Runs `after` once the simulated printer has handled its n-th fiscal receipt — printed or
 * refused, before the answer leaves — so a test can fault the exchanges that follow.
 */
export function afterReceipt(sim: FpmateSimulator, n: number, after: () => unknown): void {
  let seen = 0;
  const off = sim.onHandled((request) => {
    if (request.root !== 'printerFiscalReceipt' || ++seen !== n) return;
    off();
    void after();
  });
}

/** Closes the fiscal day on the simulated printer, as staff pressing its Z key would. */
export async function pressZKey(sim: FpmateSimulator): Promise<void> {
  const client = createHttpClient();
  try {
    const res = await client.request({
      method: 'POST',
      url: `${sim.url}/cgi-bin/fpmate.cgi?devid=local_printer&timeout=1000`,
      headers: { 'Content-Type': 'text/xml; charset=utf-8' },
      body: envelope('<printerFiscalReport><printZReport operator="1"/></printerFiscalReport>'),
      timeoutMs: 5000,
      maxBytes: 65536,
    });
    if (!res.body.toString('utf8').includes('success="true"')) throw new Error('the Z report was refused');
  } finally {
    client.close();
  }
}

/** Printer requests per receipt: every request the simulator received, over the receipts printed. */
export function requestsPerReceipt(sim: FpmateSimulator): number {
  return sim.requests.length / printedOf(sim, 'sale').length;
}

/**
 * A device status with its summary, its warnings and its facts in words as the English a test
 * compares (numbers, flags, codes and times stay as the driver gives them).
 */
export function inWords(status: DeviceStatus): Omit<DeviceStatus, 'summary' | 'warnings' | 'facts'> & {
  summary: string;
  warnings: string[];
  facts: Record<string, string | number | boolean | null>;
} {
  const words = (text: Message) => english(text);
  const facts = Object.fromEntries(
    Object.entries(status.facts).map(([key, value]) => [key, isMessage(value) ? english(value) : value]),
  );
  return { ...status, summary: words(status.summary), warnings: status.warnings.map(words), facts };
}
