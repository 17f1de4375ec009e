/**
 * The rules of a command's life, pure and without I/O: the machine's table of `(phase, event) →
 * (state, effects)` with its retries (`machine.ts`), what each phase means (`phases.ts`), what a
 * transition writes and announces (`transitions.ts`), the Notes the engine puts together
 * (`notes.ts`, its sentences in `messages.ts`), the envelope around a driver's checkpoint
 * (`checkpoint.ts`) and the shape of a command's record (`records.ts`). Every other stage stands
 * on these; they import no other stage. The stage's public surface: other stages import it only
 * from here.
 */

export {
  type CheckpointEnvelope,
  type CheckpointOwner,
  type OpenedCheckpoint,
  openCheckpoint,
  sealCheckpoint,
} from './checkpoint.js';
export {
  type CommandRetryPolicy,
  DEFAULT_COMMAND_RETRY_POLICY,
  type Effect,
  type EventType,
  type MachineEvent,
  type Transition,
  transition,
} from './machine.js';
export { engineMessages, stateWord } from './messages.js';
export { cancelledOnPlatformNotes, doneDespiteCancelNotes, errorNotes, safeReason } from './notes.js';
export {
  ACTIVE_PHASES,
  INITIAL_STATE,
  type MachineState,
  PHASES,
  type Phase,
  STARTED_PHASES,
  TERMINAL_PHASES,
  UNFINISHED_PHASES,
} from './phases.js';
export type {
  CommandHead,
  CommandPatch,
  CommandRecord,
  NewCommand,
  Outcome,
  ReportedResult,
} from './records.js';
export { patchFor, type TransitionFacts, transitionEvents } from './transitions.js';
