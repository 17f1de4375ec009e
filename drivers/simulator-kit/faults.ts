import type { Clock } from '../../src/clock.js';

/**
 * The fault switches every device simulator shares (HTTP printers here, the TCP encoders and lock
 * servers through `tcp.ts`): one object of switches a test flips, read once per exchange. What
 * each fault does is the kit's where it is the same for every device — an answer lost after the
 * device acted, a slow answer, a refused connection — and the vendor's where the vendor decides
 * (its busy code, what a restart forgets), cited in the family's simulator.
 */
export interface CommonFaults {
  /** The device acts, then the connection drops without an answer (a lost answer after print). */
  loseAnswer?: boolean;
  /** Answers to acting requests wait this long on the simulator's clock. */
  slow?: { ms: number };
  /** The device stops listening (connection refused) until turned off. */
  refused?: boolean;
}

/** The paper and cover switches every printer simulator has (the family says what it answers). */
export interface PrinterFaults extends CommonFaults {
  /** Paper end: documents are refused with the family's paper-out code. */
  paperOut?: boolean;
  /** Paper near its end: a warning only. */
  paperLow?: boolean;
  /** Cover open: documents are refused with the family's cover code. */
  coverOpen?: boolean;
}

/** Where and how a printer simulator serves (each family adds its device's own options). */
export interface PrinterSimulatorOptions {
  host?: string;
  /** 0 picks a free port; read it back from `url`. */
  port?: number;
  /** The printer's serial (matricola). */
  serial?: string;
  clock?: Clock;
  /** Time zone of the printer's clock (default Europe/Rome). */
  timeZone?: string;
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

/** What every simulated printer records of a document it emitted (the family adds its own fields). */
export interface EmittedDocument {
  /** The Z the document belongs to; for a Z report, the closure it made. */
  z: number;
  /** Its number within the Z (non-fiscal documents have their own numbering). */
  doc: number;
  /** When it was emitted, on the simulator's clock (epoch ms). */
  at: number;
  /** Its date and time as the printer stamps it, in the printer's time zone (the family's form). */
  dateTime: string;
  serial: string;
  totalCents: number;
}

/** A simulator whose device can restart: what its RAM held is gone, its memory kept (vendor rules). */
export interface Rebootable {
  reboot(): void;
}

/**
 * Sets or clears one switch: `false` clears it, anything else sets it. Resolves what the
 * `refused` switch did, so a server can stop or start listening.
 */
export function setSwitch<F extends object, N extends keyof F>(
  faults: F,
  name: N,
  value: boolean | F[N],
): { refusedBefore: boolean; refusedNow: boolean } {
  const refusedBefore = Boolean((faults as CommonFaults).refused);
  if (value === false) delete faults[name];
  else (faults as Record<PropertyKey, unknown>)[name] = value;
  return { refusedBefore, refusedNow: Boolean((faults as CommonFaults).refused) };
}
