import type { PlatformCommand } from '../../connector/model.js';
import type { CommandState } from '../../connector/wire.js';
import type { SerializedError } from '../../errors.js';
import type { Message } from '../../messages/message.js';
import type { MachineState, Phase } from './phases.js';

/**
 * What the journal keeps of a command, and what a transition writes: plain types, so the rules
 * (a transition's patch, a checkpoint's record), the journal, its row mapping, its statistics and
 * the engine share them without importing one another. They live with the rules because a
 * transition decides them; the journal (`journal/`) stores them.
 */

export type Outcome = 'Processed' | 'Error' | 'Cancelled';

/** A driver's result as the engine keeps it: its Notes read as a catalogue message. */
export interface ReportedResult {
  notes: Message;
  details?: Record<string, unknown>;
}

export interface CommandRecord {
  id: string;
  deviceId: string;
  deviceName: string;
  deviceType: string;
  /** 'fiscal' | 'keys' | 'print' | 'invalid'. */
  kind: string;
  source?: PlatformCommand['source'];
  /**
   * The normalised command as last read; absent for malformed ones. Its document (`FileData`, a
   * fiscal payload) is empty here — the journal keeps it apart (`Journal.commandForDriver`) — and
   * once the command has its outcome only `keptAfterClose` remains (`journal/command-data.ts`).
   */
  command?: PlatformCommand;
  phase: Phase;
  state: CommandState;
  outcome?: Outcome;
  attempt: number;
  createdUtc?: string;
  seenAt: number;
  startedAt?: number;
  finishedAt?: number;
  pickupMs?: number;
  progress?: number;
  /** The stored checkpoint, parsed (see `checkpoint.ts` for its envelope). */
  checkpoint?: unknown;
  /** A checkpoint is stored but is not JSON: its job's outcome cannot be known from it. */
  checkpointUnreadable?: true;
  result?: ReportedResult;
  error?: SerializedError;
  /** The last Notes reported, as a message (the journal keeps it language-neutral). */
  notes?: Message;
  timeline: Array<{ state: CommandState; at: number }>;
}

export type CommandHead = MachineState &
  Pick<CommandRecord, 'deviceId' | 'deviceType' | 'kind' | 'createdUtc' | 'source'>;

export type NewCommand = Pick<
  CommandRecord,
  'id' | 'deviceId' | 'deviceName' | 'deviceType' | 'kind' | 'source' | 'command' | 'createdUtc' | 'seenAt'
>;

/** What a transition writes. Absent fields keep their stored value. */
export interface CommandPatch {
  machine: MachineState;
  at: number;
  /** States reported to the platform by this transition, in order (for the timeline). */
  reported?: CommandState[];
  command?: PlatformCommand;
  startedAt?: number;
  finishedAt?: number;
  outcome?: Outcome;
  pickupMs?: number;
  progress?: number;
  result?: ReportedResult;
  error?: SerializedError;
  notes?: Message;
}
