import { type FpmateSimulator, startFpmateSimulator } from '../drivers/epson-fpmate/simulator/index.js';
import type { CommandView, PlatformSimulator, ScenarioInput } from '../src/platform-simulator/index.js';
import { BENCH_TOKENS, type BenchDevice } from './world.js';

/**
 * The receipts world: Epson RT printers driven by the real `epson-fpmate` driver, each against its
 * own fpmate printer simulator that takes `printMs` to print a document (its `slow` switch, which
 * delays printing requests only). The platform issues fpmate payload receipts (Base64 documents:
 * no bill to read), so a receipt costs three platform requests and one printer request. The naive
 * baseline cannot drive a printer: it sleeps the same `printMs` per receipt.
 */

export interface ReceiptPrinter extends BenchDevice {
  serial: string;
  url: string;
}

export interface ReceiptPrinters {
  readonly printers: readonly ReceiptPrinter[];
  readonly sims: readonly FpmateSimulator[];
  /** Documents printed on all printers so far. */
  printed(): number;
  /** Requests the printers have answered so far. */
  requests(): number;
  close(): Promise<void>;
}

const id = (i: number) => `c0000000-0000-4000-8000-0000000000${String(i + 1).padStart(2, '0')}`;

/** Starts `count` simulated RT printers taking `printMs` per printed document. */
export async function startReceiptPrinters(count: number, printMs: number): Promise<ReceiptPrinters> {
  const sims: FpmateSimulator[] = [];
  const printers: ReceiptPrinter[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const serial = `99MEYBNC${String(i + 1).padStart(3, '0')}`;
      const sim = await startFpmateSimulator({ serial });
      if (printMs > 0) await sim.setFault('slow', { ms: printMs });
      sims.push(sim);
      printers.push({ id: id(i), type: 'FiscalMachine', name: `RT Epson ${i + 1}`, serial, url: sim.url });
    }
  } catch (e) {
    await Promise.all(sims.map((s) => s.close()));
    throw e;
  }
  return {
    printers,
    sims,
    printed: () => sims.reduce((n, s) => n + s.printed.length, 0),
    requests: () => sims.reduce((n, s) => n + s.requests.length, 0),
    close: async () => {
      await Promise.all(sims.map((s) => s.close()));
    },
  };
}

/** The platform simulator's scenario for the receipts world. */
export function receiptScenario(
  printers: readonly ReceiptPrinter[],
  rateLimit: { requests: number; windowSeconds: number },
): ScenarioInput {
  return {
    name: 'bench-receipts',
    seed: 7_171_717,
    platform: { ...BENCH_TOKENS, rateLimit, otherEventRate: 0 },
    enterprises: [{ id: 'c0e0e000-0000-4000-8000-000000000000', name: 'Hotel Ricevute' }],
    devices: printers.map((p) => ({
      id: p.id,
      type: 'FiscalMachine' as const,
      name: p.name,
      apiUrl: p.url,
      serialNumber: p.serial,
    })),
    reservations: { generate: 20 },
    generator: { autostart: false, rate: 0 },
  };
}

/** The agent's `devices:` block: the real Epson driver, one device per printer. */
export function receiptDeviceConfigs(printers: readonly ReceiptPrinter[]) {
  return printers.map((p) => ({
    id: p.id,
    name: p.name,
    type: p.type,
    driver: 'epson-fpmate',
    options: { url: p.url },
  }));
}

/** The `n`-th receipt: an fpmate payload document on printer `n mod printers`. */
export function createReceipt(
  sim: PlatformSimulator,
  printers: readonly ReceiptPrinter[],
  n: number,
): CommandView {
  const printer = printers[n % printers.length] as ReceiptPrinter;
  return sim.createFiscalPayload({ deviceId: printer.id, envelope: 'soap' });
}
