/**
 * The command engine's public surface, for the composition root (`src/agent.ts`) and tests.
 */
export { createEngine } from './engine.js';
export type { CommandPatch, CommandRecord, NewCommand, Outcome } from './journal.js';
export { Journal, openJournal } from './journal.js';
export type { OutboxItem } from './journal-outbox.js';
export { SCHEMA_VERSION } from './journal-schema.js';
export type { Effect, EventType, MachineEvent, MachineState, Phase, Transition } from './machine.js';
export { INITIAL_STATE, PHASES, transition } from './machine.js';
export { errorNotes } from './notes.js';
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
