import type { ManualClock } from '../../../src/clock.js';
import type { WireOrderItem, WirePayment } from '../../../src/connector/wire.js';
import type { Driver, DriverContext, Job } from '../../../src/drivers-api/types.js';
import { orderItem, payment, refundJob, saleJob } from '../epson-fpmate/helpers.js';

/**
 * What the recovery matrix needs of one RT family's simulator (issue 42 item 3). A family joins
 * by registering in `drivers/index.ts` (group `rt-printer`) and adding its `MatrixFamily` to
 * `families/index.ts` (docs/adding-a-driver-family.md); a registered RT family without one fails
 * the suite.
 */
export interface MatrixFamily {
  kind: string;
  /**
   * A simulator on `clock` and a driver on it; `settleMinutes` for the wait after a lost answer;
   * `billRead`, when given, is awaited before the platform answers a bill read (an outage).
   */
  rig(clock: ManualClock, o?: { settleMinutes?: number; billRead?: Promise<unknown> }): Promise<MatrixRig>;
  /**
   * Cells this family's protocol cannot meet, each with why and the source that says so; every
   * other cell runs. A cell named here that the family could run is a reviewer's question.
   */
  notApplicable: Readonly<Partial<Record<CellName, string>>>;
  /** What a busy answer to a document means for this family, and the source that says so. */
  busy: { expect: 'DEVICE_BUSY' | 'STATE_UNKNOWN'; source: string };
}

/** The cells of the matrix (cells.ts). */
export type CellName =
  | 'lost answer after print'
  | 'kill before send'
  | 'kill after send'
  | 'kill while printing'
  | 'reboot between'
  | 'unreadable witness'
  | 'own id last, document open'
  | 'another till’s open document'
  | 'another till’s document ends in time'
  | 'status 21 mid-send'
  | 'status 76 after print'
  | 'busy answer'
  | 'void of several lines'
  | 'staff void, answer lost';

export interface MatrixRig {
  /** The driver of the running agent; `restart()` makes another on the same store (a restart). */
  driver: Driver;
  restart(): Driver;
  /** A sale of two lines (`id` its command id). */
  sale(id: string): Job;
  /** A void of the sale printed as document `doc` of Z `z` at `at`. */
  voidOf(id: string, printed: PrintedOnDevice): Job;
  /** The staff action "void"'s parameters for `printed` (the page's form, the CLI's options). */
  staffVoidParams(printed: PrintedOnDevice): Record<string, string>;
  /** The fiscal documents of `kind` the device holds. */
  documents(kind: 'sale' | 'void'): PrintedOnDevice[];
  /** The next document's answer is lost after the device printed it. */
  loseNextAnswer(): void;
  /** Right after the next document is printed (before its answer goes out), `then` runs. */
  afterNextDocument(then: () => void): void;
  /** The answer to documents waits this long on the device's clock. */
  slowAnswers(ms: number): Promise<void>;
  /** The device restarts: its memory kept, its RAM lost (the family's simulator says what). */
  reboot(): void;
  /** The witness the family reads after a lost answer cannot be read. */
  unreadableWitness(): Promise<void>;
  /** Every document request is answered with the family's busy code. */
  busy(on: boolean): Promise<void>;
  /** Families that keep a document open between requests (a request id, another till). */
  shared?: {
    /** The end node is refused, leaving the agent's own document open under its id. */
    refuseEnd(status: number): Promise<void>;
    openForeign(): void;
    endForeign(): void;
    foreignResets(): number;
    /** Another till opens its document right after the agent's last read before a document. */
    foreignOpensBeforeNextDocument(): void;
    /** Answers the next printed document with status 76 (consolidating): Custom's own state. */
    consolidating?(on: boolean): Promise<void>;
  };
  close(): Promise<void>;
}

export interface PrintedOnDevice {
  z: number;
  doc: number;
  at: number;
  lines: number;
}

/** `ctx` whose bill reads wait for `billRead` (a platform outage), when given. */
export function outageAware(ctx: DriverContext, billRead: Promise<unknown> | undefined): DriverContext {
  if (!billRead) return ctx;
  const platform = ctx.platform;
  return {
    ...ctx,
    platform: {
      ...platform,
      orderItems: (...args) => billRead.then(() => platform.orderItems(...args)),
    },
  };
}

/** The matrix's sale: two lines at two rates, paid by card. */
export const MATRIX_BILL: { items: WireOrderItem[]; payments: WirePayment[] } = {
  items: [
    orderItem('i1', { unitGross: 10, units: 2, rate: 22 }),
    orderItem('i2', { unitGross: 5, rate: 10 }),
  ],
  payments: [payment('p1', 'CreditCardPayment', 25)],
};

/** The platform's void of `printed` (a cancelled bill naming it), on the printer `serial`. */
export function voidJob(id: string, printed: PrintedOnDevice, serial: string): Job {
  const rebated = {
    sequence: String(printed.z),
    receiptNumber: String(printed.doc),
    dateTimeUtc: new Date(printed.at).toISOString(),
  };
  const job = refundJob(rebated, serial, id);
  if (job.data.kind === 'fiscal') job.data.fiscal.bill.correctionType = 'Cancellation';
  return job;
}

/** What a simulator's record says of its fiscal documents of `kind`. */
export function onDevice(
  printed: ReadonlyArray<{ kind: string; z: number; doc: number; at: number; lines: readonly unknown[] }>,
  kind: string,
): PrintedOnDevice[] {
  return printed
    .filter((d) => d.kind === kind)
    .map((d) => ({ z: d.z, doc: d.doc, at: d.at, lines: d.lines.length }));
}

/** Runs `then` once, right after the simulator's next printed fiscal receipt. */
export function afterNextPrinted(
  onHandled: (listener: (r: { root: string; printed: boolean }) => void) => () => void,
  then: () => void,
): void {
  const off = onHandled((r) => {
    if (r.root !== 'printerFiscalReceipt' || !r.printed) return;
    off();
    then();
  });
}

/** What the matrix needs of a family's simulator to build the parts of a rig every family shares. */
export interface MatrixSimulator {
  printed: Parameters<typeof onDevice>[0];
  onHandled(listener: (r: { root: string; printed: boolean }) => void): () => void;
  reboot(): void;
  setFault(name: 'slow', value: { ms: number }): Promise<void>;
}

/**
 * What every matrix rig gives its family's helper rig: the matrix's bill, the manual clock, the
 * outage switch, and driver options with reads that outlast a loaded machine and one busy retry.
 */
export function matrixRigOptions(
  clock: ManualClock,
  o: { settleMinutes?: number; billRead?: Promise<unknown> },
) {
  return {
    ...MATRIX_BILL,
    clock,
    ctx: (ctx: DriverContext) => outageAware(ctx, o.billRead),
    driver: { readTimeoutMs: 5_000, busyRetries: 1, settleUnansweredForMinutes: o.settleMinutes ?? 0 },
  };
}

/** A rig from a family's helper rig and simulator; `own` adds the family's own switches. */
export function matrixRigOf(
  r: { driver: Driver; restart(): Driver; close(): Promise<void> },
  sim: MatrixSimulator,
  serial: string,
  own: Pick<MatrixRig, 'unreadableWitness' | 'busy' | 'shared'> & {
    /** Turns the family's "lost answer after print" switch on or off. */
    loseAnswers(on: boolean): Promise<void>;
  },
): MatrixRig {
  const after = (then: () => void) => afterNextPrinted((l) => sim.onHandled(l), then);
  return {
    driver: r.driver,
    restart: () => r.restart(),
    sale: (id) => saleJob(id),
    voidOf: (id, printed) => voidJob(id, printed, serial),
    staffVoidParams: (printed) => ({
      receipt: `${String(printed.z).padStart(4, '0')}-${String(printed.doc).padStart(4, '0')}`,
      date: new Date(printed.at).toISOString().slice(0, 10),
    }),
    documents: (kind) => onDevice(sim.printed, kind),
    loseNextAnswer: () => {
      void own.loseAnswers(true);
      after(() => void own.loseAnswers(false));
    },
    afterNextDocument: after,
    slowAnswers: (ms) => sim.setFault('slow', { ms }),
    reboot: () => sim.reboot(),
    unreadableWitness: own.unreadableWitness,
    busy: own.busy,
    ...(own.shared ? { shared: own.shared } : {}),
    close: () => r.close(),
  };
}
