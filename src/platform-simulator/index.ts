/**
 * The platform simulator: a fake Connector API + WebSocket + command generator + faults, for CI,
 * `npm start`, benchmarks and integrators without an account. Start it with
 * `startPlatformSimulator()`; load scenarios with `loadScenario()` / `parseScenario()`.
 */
export type { HistoryEntry } from './commands.js';
export type { CommandFilter, CommandView } from './core.js';
export {
  type DocumentRules,
  documentRules,
  LENIENT_RULES,
  STRICT_RULES,
} from './document.js';
export type { CreateCommandOptions } from './factory.js';
export { type Faults, type FaultsPatch, MALFORMED_KINDS, type MalformedKind } from './fault-schema.js';
export type { RequestLogEntry, SimCounters } from './metrics.js';
export { type KnownReceipt, parseReceiptNotes } from './receipts.js';
export {
  COMMAND_KINDS,
  type CommandKind,
  loadScenario,
  parseScenario,
  type Scenario,
  type ScenarioInput,
  validateScenario,
} from './scenario.js';
export { type PlatformSimulatorOptions, startPlatformSimulator } from './simulator.js';
export type { PlatformSimulator } from './simulator-api.js';
export type { SimDevice, SimReservation, World } from './world.js';
