import type { ManualClock } from '../../../src/clock.js';
import type { Driver, DriverContext, Job } from '../../../src/drivers-api/types.js';

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
  | 'void of several lines';

export interface MatrixRig {
  /** The driver of the running agent; `restart()` makes another on the same store (a restart). */
  driver: Driver;
  restart(): Driver;
  /** A sale of two lines (`id` its command id). */
  sale(id: string): Job;
  /** A void of the sale printed as document `doc` of Z `z` at `at`. */
  voidOf(id: string, printed: PrintedOnDevice): Job;
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
    /** Answers the next printed document with status 76 (consolidating). */
    consolidating(on: boolean): Promise<void>;
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
