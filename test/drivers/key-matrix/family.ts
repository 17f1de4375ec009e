import { type Clock, ManualClock } from '../../../src/clock.js';
import type { Driver, ExecuteContext, Job, Reconciliation } from '../../../src/drivers-api/types.js';
import type { AgentError } from '../../../src/errors.js';
import { toAgentError } from '../../../src/errors.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';

/**
 * One key family on its device, as the key recovery matrix (`matrix.test.ts`) plays faults on it.
 * A family of `drivers/index.ts` whose device type is KeyCutter joins the matrix by adding its
 * `KeyMatrixFamily` to `families.ts`; a KeyCutter kind without one fails the matrix.
 */

/** The matrix's cells (`cells.ts`). */
export type CellName =
  | 'kill after a card'
  | 'lost answer'
  | 'link replaced mid-card'
  | 'encoder rebooted'
  | 'busy encoder'
  | 'corrupt checkpoint';

/** What a cell ends in, read from the driver and from the device's own record. */
export interface Outcome {
  outcome: 'done' | 'not-done' | 'failed' | 'unknown';
  /** Keys the agent reports cut (a failure's details). */
  cut?: number;
  /** The card whose fate the agent reports unknown ("test that card"). */
  inDoubt?: number;
  /** Cards the device wrote (its own record, never the driver's word). */
  deviceCards: number;
  /** Card requests the device received: a card is never asked for twice. */
  deviceRequests: number;
}

/** A cell's expected outcome and its source. */
export type Expected = Omit<Outcome, 'deviceRequests'> & { deviceRequests?: number; why: string };

export interface KeyMatrixRig {
  /**
   * A driver on this device, opened; every driver of one rig shares what a restart keeps (the
   * `DeviceStore`). `clock` drives its timeouts (default: the system's).
   */
  driver(clock?: Clock): Promise<Driver>;
  /** A job of three keys for room 101; a new command id on each call. */
  job(): Job;
  cards(): number;
  requests(): number;
  /** The device's `card`-th next request plays the simulator kit's `fault`; the others are served. */
  fault(fault: 'lost-answer' | 'reboot' | 'busy' | 'drop-after-effect' | 'slow', card: number): void;
  /** Tells `listener` of each card request as the device takes it (1-based, since the rig began). */
  onRequest(listener: (index: number) => void): void;
  /** The answer timeout the driver waits on its clock for one card. */
  answerTimeoutMs: number;
  /** Resolves once the device is back after a reboot. */
  back(): Promise<void>;
  /** Plays "link replaced mid-card" on this device at card `card` (see the family's `expects`). */
  replaceLink?(card: number): void;
  dispose(): Promise<void>;
}

export interface KeyMatrixFamily {
  kind: string;
  /** The cells its device cannot play, each with why. */
  cannot: Partial<Record<CellName, string>>;
  /** Where its protocol makes a cell end otherwise than the matrix's default (or there is none), with why. */
  expects?: Partial<Record<CellName, Expected>>;
  rig(): Promise<KeyMatrixRig>;
}

/** Runs a job to its end: the outcome as the core would record it. */
export async function executed(
  driver: Driver,
  job: Job,
  ctx: ExecuteContext = recordingExecuteContext(),
): Promise<{ ok: true } | { ok: false; error: AgentError }> {
  try {
    await driver.execute(job, ctx);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: toAgentError(error) };
  }
}

/** Keys cut and the card in doubt, as a failure or a restart's verdict tells them. */
export function verdictOf(result: { ok: true } | { ok: false; error: AgentError } | Reconciliation): {
  outcome: Outcome['outcome'];
  cut?: number;
  inDoubt?: number;
} {
  if ('ok' in result) {
    if (result.ok) return { outcome: 'done' };
    return { outcome: 'failed', ...counts(result.error) };
  }
  if (result.outcome === 'failed') return { outcome: 'failed', ...counts(result.error) };
  return { outcome: result.outcome };
}

function counts(error: AgentError): { cut?: number; inDoubt?: number } {
  const d = error.details;
  const cut =
    typeof d.confirmed === 'number' ? d.confirmed : typeof d.cardsCut === 'number' ? d.cardsCut : undefined;
  const inFlight = typeof d.inFlight === 'number' ? d.inFlight : undefined;
  const lostAnswer = d.phase === 'reply' && cut !== undefined ? cut + 1 : undefined;
  const inDoubt = inFlight ?? lostAnswer;
  return { ...(cut === undefined ? {} : { cut }), ...(inDoubt === undefined ? {} : { inDoubt }) };
}

/** A ManualClock that knows which waits are under way, by length, to end the one a cell waits on. */
export class WatchedClock extends ManualClock {
  private readonly active = new Map<number, number>();

  /** Waits of `ms` under way. */
  waiting(ms: number): number {
    return this.active.get(ms) ?? 0;
  }

  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.active.set(ms, this.waiting(ms) + 1);
    const settled = () => this.active.set(ms, this.waiting(ms) - 1);
    const wait = super.sleep(ms, signal);
    wait.then(settled, settled);
    return wait;
  }
}
