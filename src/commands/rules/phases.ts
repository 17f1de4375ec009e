import type { CommandState } from '../../connector/wire.js';

/**
 * The phases of a command's life in this agent, with what each one means. Every list of phases
 * the engine uses — the journal's SQL included — is derived from this table.
 */

interface PhaseFacts {
  /** Still needs its device: queued, re-reading, running or reconciling. */
  device: boolean;
  /** The device may have acted and the outcome is not journaled: reconciled after a restart. */
  started: boolean;
  /** Journaled with work left (the device, or a result to deliver): a restart picks it up. */
  unfinished: boolean;
  /** Nothing is left to do, not even a delivery. */
  terminal: boolean;
}

const PHASE_FACTS = {
  /** Not in the journal (only `accept` / `invalid` apply). */
  new: { device: false, started: false, unfinished: false, terminal: false },
  /** Journaled; Received queued for the platform; waiting in its device queue. */
  accepted: { device: true, started: false, unfinished: true, terminal: false },
  /** As `accepted`, and the platform has confirmed Received. */
  received: { device: true, started: false, unfinished: true, terminal: false },
  /** Its turn came: re-reading the command before the first side effect. */
  starting: { device: true, started: false, unfinished: true, terminal: false },
  /** Processing reported; the driver executes it. */
  running: { device: true, started: true, unfinished: true, terminal: false },
  /**
   * The platform has it terminal (cancelled) while it runs; the driver's signal fired. `state` is
   * the platform's state from here on.
   */
  cancelling: { device: true, started: true, unfinished: true, terminal: false },
  /** Found started-but-unfinished after a restart; the driver decides its fate. */
  reconciling: { device: true, started: true, unfinished: true, terminal: false },
  /** Outcome journaled; Processed/Error queued, not yet confirmed delivered. */
  finished: { device: false, started: false, unfinished: true, terminal: false },
  /** Terminal: cancelled or gone before it started; nothing ran. */
  skipped: { device: false, started: false, unfinished: false, terminal: true },
  /** Terminal: cancelled while running and the driver stopped. */
  cancelled: { device: false, started: false, unfinished: false, terminal: true },
  /** Terminal: outcome delivered, or the platform already had it terminal. */
  closed: { device: false, started: false, unfinished: false, terminal: true },
} as const satisfies Record<string, PhaseFacts>;

export type Phase = keyof typeof PHASE_FACTS;

const phasesWhere = (fact: (f: PhaseFacts) => boolean): readonly Phase[] =>
  PHASES.filter((phase) => fact(PHASE_FACTS[phase]));

/** Every phase, in the order of a command's life. */
export const PHASES = Object.keys(PHASE_FACTS) as readonly Phase[];
export const TERMINAL_PHASES = phasesWhere((f) => f.terminal);
/** Phases in which a command still needs its device (queued, re-reading, running, reconciling). */
export const ACTIVE_PHASES = phasesWhere((f) => f.device);
/** Phases in which the device may have acted without the outcome being journaled. */
export const STARTED_PHASES = phasesWhere((f) => f.started);
/** Phases a restart picks up again: those that need the device, and results not yet delivered. */
export const UNFINISHED_PHASES = phasesWhere((f) => f.unfinished);

/** Where a command is in its life: what the journal keeps and the machine moves. */
export interface MachineState {
  phase: Phase;
  /** Runs so far (1 after the first start). */
  attempt: number;
  /** The state the agent last reported, or learned the platform has (terminal) on its own. */
  state: CommandState;
}

/** The state of a command the journal has never seen. */
export const INITIAL_STATE: MachineState = { phase: 'new', attempt: 0, state: 'Pending' };
