/**
 * The command engine's public surface, for the agent (`src/agent/`), the rest of
 * `src/` and tests: the rest of `src/` imports the engine only from here. How one command flows
 * through the stages: `README.md` here.
 */
export { createEngine } from './engine.js';
export {
  Journal,
  type OutboxItem,
  openJournal,
  SCHEMA_VERSION,
} from './journal/index.js';
export {
  type CommandPatch,
  type CommandRecord,
  type CommandRetryPolicy,
  DEFAULT_COMMAND_RETRY_POLICY,
  type Effect,
  type EventType,
  errorNotes,
  INITIAL_STATE,
  type MachineEvent,
  type MachineState,
  type NewCommand,
  type Outcome,
  PHASES,
  type Phase,
  safeReason,
  stateWord,
  type Transition,
  transition,
} from './rules/index.js';
export type {
  DeviceQueueState,
  Engine,
  EngineDevice,
  EngineOptions,
  EngineTuning,
  PlatformActivity,
  PollOptions,
} from './types.js';
export { DEFAULT_TUNING } from './types.js';
