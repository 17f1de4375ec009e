import type { Driver, Job } from '../../../src/drivers-api/types.js';

/**
 * One driver on one device, as the contract suite (`contract.ts`) drives it. A new driver joins
 * the suite by adding an entry to `entries/index.ts`; a driver kind of `drivers/index.ts` without
 * an entry fails the suite.
 */
export interface ContractEntry {
  /** "salto-encoder over TCP": names the describe block. */
  name: string;
  /** The factory kind (`DriverFactory.kind`) the entry covers. */
  kind: string;
  /** System tools the device needs: CI fails without them, a developer's machine skips the entry. */
  tools?: Array<{ tool: string; why: string }>;
  /**
   * What its rigs offer beyond the basics; the checks that need something not offered are not
   * defined for the entry (say why in the entry):
   * - `device`: a device behind a link that can go away and come back (`ContractRig.device`);
   * - `effectMoment`: the moment of a side effect (`ContractRig.onEffect`);
   * - `finished`: whether a job finished on the device (`ContractRig.finished`).
   */
  offers: { device: boolean; effectMoment: boolean; finished: boolean };
  /** A fresh device (simulator, ledger, store) and what the suite needs to watch it, per test. */
  rig(): Promise<ContractRig>;
  /** Releases what the entry's rigs share (a printer process), after its last test. */
  shutdown?(): Promise<void>;
}

export interface ContractRig {
  /**
   * A new driver for this device. Every driver of one rig shares the durable state a restart
   * keeps (the `DeviceStore`), so a second driver is the agent after a crash.
   */
  driver(): Driver;
  /** A job the device completes when nothing goes wrong; a new command id on each call. */
  job(): Job;
  /** How many side effects a complete `job()` makes: documents printed, cards cut. */
  units: number;
  /**
   * Side effects the device has taken on so far, from the device's own record (the simulated
   * printer's documents, the encoder's cards, the simulated device's ledger), never the driver's.
   */
  effects(): number;
  /**
   * Side effects the device has finished (a document out of the printer, a card cut). An abort
   * is judged by it: a job the driver reports ABORTED must not be finished.
   */
  finished?(): number;
  /**
   * Calls `listener` synchronously when the device takes a request that performs a side effect,
   * before the driver hears back.
   */
  onEffect?(listener: () => void): () => void;
  /** A real (or simulated) device the driver reaches over a link; the sim drivers have none. */
  device?: DeviceControl;
  dispose(): Promise<void>;
}

export interface DeviceControl {
  /** The device goes away: connections refused, the cable pulled. */
  gone(): Promise<void>;
  /** It comes back where it was. */
  back(): Promise<void>;
  /**
   * A driver whose device accepts the connection and never answers (long driver timeouts, so
   * only the signal can end a wait); `asked` resolves once the device got the first bytes.
   */
  silent(): Promise<SilentDevice>;
}

export interface SilentDevice {
  driver: Driver;
  asked: Promise<void>;
  dispose(): Promise<void>;
}
