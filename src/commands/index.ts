/**
 * The command engine's public surface, for the composition root (`src/agent.ts`) and tests. How
 * one command flows through the files: `README.md` here.
 */
export { createEngine } from './engine.js';
export { Journal, openJournal } from './journal.js';
export type { OutboxItem } from './journal-outbox.js';
export type { CommandPatch, CommandRecord, NewCommand, Outcome } from './journal-records.js';
export { SCHEMA_VERSION } from './journal-schema.js';
export type { CommandRetryPolicy, Effect, EventType, MachineEvent, Transition } from './machine.js';
export { DEFAULT_COMMAND_RETRY_POLICY, transition } from './machine.js';
export { errorNotes } from './notes.js';
export type { MachineState, Phase } from './phases.js';
export { INITIAL_STATE, PHASES } from './phases.js';
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
