import { epsonFpmateFactory } from '../../drivers/epson-fpmate/index.js';
import {
  type DepartmentClass,
  type FpmateSimulator,
  type FpmateSimulatorOptions,
  type PrintedDocument,
  startFpmateSimulator,
} from '../../drivers/epson-fpmate/simulator/index.js';
import { SIM_DEPARTMENTS } from '../../drivers/epson-fpmate/simulator/programming.js';
import { normalizeFiscalMachineCommand } from '../../src/connector/model.js';
import {
  OrderItemSchema,
  PaymentSchema,
  type WireOrderItem,
  type WirePayment,
} from '../../src/connector/wire.js';
import type { Driver, DriverContext, JobResult } from '../../src/drivers-api/types.js';
import { type AgentError, isAgentError } from '../../src/errors.js';
import { createMemoryLogger } from '../../src/log.js';
import type { Message } from '../../src/messages/message.js';
import { english } from '../../src/messages/render.js';
import { createHttpClient } from '../../src/transport/http.js';
import { QUICK_DRIVER } from '../drivers/epson-fpmate/helpers.js';
import {
  jobFor,
  memoryStore,
  recordingExecuteContext,
  testDriverContext,
} from '../helpers/driver-context.js';

/**
 * The fiscal law suite's bench: a bill goes in as the platform sends it — the fiscal machine
 * command in its wire shape (`fiscalMachineCommands/getAll`: the bill with its owner data, the
 * `TaxIdentifier`, the refund fields), its order items and payments as `orderItems/getAll` and
 * `payments/getAll` give them — through the real Epson driver (and so through the fiscal core,
 * `drivers/fiscal-it/`) to the Epson printer simulator, which checks the document as an RT does
 * and keeps what it printed. Each case then reads the printed document, the XML the driver sent,
 * the Notes and the log.
 */

export const SERIAL = '99MEY123456';

export interface LawBench {
  sim: FpmateSimulator;
  driver: Driver;
  /** Every fpmate request body the driver sent, in order. */
  sent: string[];
  /** The driver's log lines. */
  log: string[];
  items: WireOrderItem[];
  payments: WirePayment[];
  close(): Promise<void>;
}

/**
 * A driver context over the bill's `items` and `payments` whose HTTP client records every request
 * body in `sent`, with a memory log (`lines`).
 */
export function recordingContext(items: WireOrderItem[], payments: WirePayment[], sent: string[]) {
  const logger = createMemoryLogger();
  const ctx: DriverContext = {
    ...testDriverContext({ store: memoryStore(), orderItems: items, payments }),
    log: logger,
    http: () => {
      const client = createHttpClient();
      return {
        request: async (request: Parameters<typeof client.request>[0]) => {
          sent.push(String(request.body ?? ''));
          return client.request(request);
        },
        close: () => client.close(),
      };
    },
  };
  return { ctx, lines: logger.lines };
}

/**
 * A simulator and a driver configured with `options` (the fiscal rules under test); `printer`
 * programs the simulated printer otherwise than its default (`departments`).
 */
export async function lawBench(
  options: Record<string, unknown> = {},
  printer: FpmateSimulatorOptions = {},
): Promise<LawBench> {
  const sim = await startFpmateSimulator({ ...printer, host: '127.0.0.1', port: 0 });
  const sent: string[] = [];
  const items: WireOrderItem[] = [];
  const payments: WirePayment[] = [];
  const { ctx, lines } = recordingContext(items, payments, sent);
  const parsed = epsonFpmateFactory.configSchema.parse({
    url: sim.url,
    ...QUICK_DRIVER,
    dailyClosure: { enabled: false },
    ...options,
  });
  const driver = epsonFpmateFactory.create(parsed, ctx);
  return {
    sim,
    driver,
    sent,
    log: lines,
    items,
    payments,
    async close() {
      await driver.close();
      await sim.close();
    },
  };
}

/** An order item of `gross` euro at `rate` % VAT (or a nature by `exemption`), as orderItems/getAll. */
export function item(
  id: string,
  gross: number,
  rate: number,
  extra: { name?: string; units?: number; exemption?: string; type?: string; taxCode?: string } = {},
): WireOrderItem {
  const units = extra.units ?? 1;
  const amount = (g: number) => {
    const net = Math.round((g / (1 + rate / 100)) * 100) / 100;
    return {
      Currency: 'EUR',
      NetValue: net,
      GrossValue: g,
      TaxValues: [{ Code: extra.taxCode ?? `IT-VAT-${rate}`, Value: Math.round((g - net) * 100) / 100 }],
    };
  };
  return OrderItemSchema.parse({
    Id: id,
    UnitCount: units,
    UnitAmount: amount(Math.round((gross / units) * 100) / 100),
    Amount: amount(gross),
    Type: extra.type ?? 'ProductOrder',
    Notes: extra.name ?? null,
    TaxExemptionReason: extra.exemption ?? null,
  });
}

/**
 * A payment of `euro` as payments/getAll gives it (money received is negative): `type` is
 * `CashPayment`, `CreditCardPayment` or `ExternalPayment:<kind>` / `InvoicePayment:<kind>`;
 * `breakdown` the VAT per rate the platform records for it (a deposit's own receipt).
 */
export function pay(
  id: string,
  type: string,
  euro: number,
  breakdown?: Array<{ rate: number; gross: number }>,
): WirePayment {
  const [base, sub] = type.split(':') as [string, string | undefined];
  const data = sub
    ? base === 'InvoicePayment'
      ? { Discriminator: 'Invoice', Invoice: { Type: sub } }
      : { Discriminator: 'External', External: { Type: sub } }
    : null;
  const amount: Record<string, unknown> = { Currency: 'EUR', GrossValue: -euro, NetValue: -euro };
  if (breakdown) {
    const items = breakdown.map((b) => {
      const net = Math.round((b.gross / (1 + b.rate / 100)) * 100) / 100;
      return {
        TaxRateCode: `IT-VAT-${b.rate}`,
        NetValue: -net,
        TaxValue: -Math.round((b.gross - net) * 100) / 100,
      };
    });
    amount.Breakdown = { Items: items };
    amount.NetValue = items.reduce((s, i) => s + i.NetValue, 0);
  }
  return PaymentSchema.parse({ Id: id, Type: base, State: 'Charged', Amount: amount, Data: data });
}

export interface WireCommandOptions {
  billId?: string;
  /** `Customer` (a consumer) or `Company`. */
  accountType?: 'Customer' | 'Company';
  /** The owner customer's `LegalIdentifiers` (`ItLotteryCode` …). */
  legalIdentifiers?: Record<string, string>;
  taxIdentifier?: string;
  correctionType?: string;
  /** `FiscalMachineData` of the device: machine-wide settings. */
  machineSettings?: Record<string, unknown>;
  refund?: {
    receiptNumber?: string;
    sequence?: string;
    dateTimeUtc?: string;
    printerSerialNumber?: string;
  };
}

let commands = 0;

/**
 * A fiscal machine command in the platform's wire shape (`fiscalMachineCommands/getAll`, bill
 * version 2025-06-23), normalised as the agent does.
 */
export function wireCommand(o: WireCommandOptions = {}) {
  const refund = o.refund;
  const bill: Record<string, unknown> = {
    Id: o.billId ?? 'bill-law',
    EnterpriseId: 'e',
    AccountId: 'a',
    State: 'Closed',
    CreatedUtc: '2026-11-21T10:00:00Z',
    UpdatedUtc: '2026-11-21T10:00:00Z',
    CorrectionState: 'Bill',
    Number: '2001',
    AccountType: o.accountType ?? 'Customer',
    CorrectionType: o.correctionType ?? null,
  };
  if (o.legalIdentifiers || o.accountType === 'Company') {
    bill.Owner =
      o.accountType === 'Company'
        ? {
            Discriminator: 'BillCompanyData',
            BillCompanyData: { LegalIdentifiers: o.legalIdentifiers ?? {} },
          }
        : { Discriminator: 'BillCustomerData', BillCustomerData: { LegalIdentifiers: o.legalIdentifiers } };
  }
  const value: Record<string, unknown> = { IsRefund: refund !== undefined };
  if (refund) {
    value.RebatedReceiptNumber = refund.receiptNumber ?? null;
    value.RebatedReceiptSequence = refund.sequence ?? null;
    value.RebatedReceiptDateTimeUtc = refund.dateTimeUtc ?? null;
    value.PrinterSerialNumber = refund.printerSerialNumber ?? null;
  }
  const normalized = normalizeFiscalMachineCommand({
    Id: `cmd-${++commands}`,
    State: 'Pending',
    CreatedUtc: '2026-11-21T10:00:00Z',
    FiscalMachineData: o.machineSettings ? JSON.stringify(o.machineSettings) : null,
    TaxIdentifier: o.taxIdentifier ?? null,
    Device: { Id: 'd1', Type: 'FiscalMachine', Name: 'RT' },
    Bill: bill,
    CommandData: { Discriminator: 'ItalianFiscalMachineData', ItalianFiscalMachineData: value },
  });
  if (!normalized.ok) throw new Error(`the test's command does not normalise: ${JSON.stringify(normalized)}`);
  return normalized.command.data;
}

export interface Outcome {
  result?: JobResult;
  error?: AgentError;
  /** The document the printer emitted for this command, if any. */
  doc?: PrintedDocument;
  /** The fpmate XML the driver sent for the receipt, if it sent one. */
  xml?: string;
  /** Log lines written while the command ran. */
  log: string[];
}

/** Runs a fiscal command through the driver and reads what the printer did. */
export async function run(bench: LawBench, o: WireCommandOptions = {}): Promise<Outcome> {
  const printed = bench.sim.printed.length;
  const sentBefore = bench.sent.length;
  const logBefore = bench.log.length;
  const out: Outcome = { log: [] };
  try {
    out.result = await bench.driver.execute(jobFor(wireCommand(o)), recordingExecuteContext());
  } catch (e) {
    if (!isAgentError(e)) throw e;
    out.error = e;
  }
  const doc = bench.sim.printed
    .slice(printed)
    .find((d) => d.kind === 'sale' || d.kind === 'refund' || d.kind === 'void');
  if (doc) out.doc = doc;
  const xml = bench.sent.slice(sentBefore).find((b) => b.includes('<printerFiscalReceipt>'));
  if (xml) out.xml = xml;
  out.log = bench.log.slice(logBefore);
  return out;
}

/** The bill's gross in cents, from its order items (what the receipt must total, less deductions). */
export function billCents(items: readonly WireOrderItem[]): number {
  return items.reduce((s, i) => s + Math.round((i.Amount.GrossValue ?? 0) * 100), 0);
}

/** Replaces the bill on the platform (any bench's bill: this one's, a family's recorder's). */
export function publish(
  bench: Pick<LawBench, 'items' | 'payments'>,
  items: WireOrderItem[],
  payments: WirePayment[],
): void {
  bench.items.splice(0, bench.items.length, ...items);
  bench.payments.splice(0, bench.payments.length, ...payments);
}

/** Notes in English; empty when there are none. */
export function said(message: Message | undefined): string {
  return message ? english(message) : '';
}

/**
 * A refund's (or a void's) reference to `sale` as the platform sends it (`RebatedReceipt…`);
 * `serial`: the RT that printed it, this bench's by default.
 */
export function refundOf(
  sale: Pick<PrintedDocument, 'z' | 'doc' | 'at'>,
  serial = SERIAL,
): NonNullable<WireCommandOptions['refund']> {
  return {
    sequence: String(sale.z),
    receiptNumber: String(sale.doc),
    dateTimeUtc: new Date(sale.at).toISOString(),
    printerSerialNumber: serial,
  };
}

/**
 * A printer programmed as the JavaPOS driver programs one (linokoetting/iconic.mytrade.
 * gutenbergPrinter-epson `SharedPrinterFields.java:65-66`, `tax/VatCommands.java` `setVATtable`):
 * the simulator's rates, N1–N3 in departments 10–12, RM and AL in the departments of their groups
 * 13 and 14, the exempt nature (N4) in department 20 with VAT group "20".
 */
export function javaPosPrinter(): Record<number, DepartmentClass> {
  const { 13: _n4, 14: _n5, 15: _n6, ...rest } = SIM_DEPARTMENTS;
  return { ...rest, 13: { nature: 'N5' }, 14: { nature: 'N6' }, 20: { nature: 'N4', group: 20 } };
}
