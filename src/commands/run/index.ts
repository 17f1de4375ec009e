/**
 * The run stage: what becomes of a command of ours, from "is it ours?" to its outcome. Ownership
 * takes in what the intake found (`ownership.ts`, the intake's sink), the lifecycle applies one
 * event — the rules decide, the journal records (`lifecycle.ts`) — and the executor carries out
 * what was written (`executor.ts`): the device queues and turns (`device-queues.ts`), the check
 * before a start (`start-check.ts`, `reread.ts`, `start-hold.ts`) and the driver calls
 * (`device-calls.ts`). Updates for the platform go into the outbox through the `OutboxWriter`
 * port. The stage's public surface: the engine and later stages import it only from here.
 */

export { EffectExecutor, type ExecutorDeps } from './executor.js';
export { type Applied, type ApplyOptions, Lifecycle, type LifecycleDeps } from './lifecycle.js';
export { Ownership, type OwnershipDeps } from './ownership.js';
export {
  type CommandSource,
  fetchCommands,
  type RereadDeps,
  type RereadResult,
  rereadCommand,
} from './reread.js';
export type { DeviceQueueState, EngineDevice, OutboxWriter, RunTuning } from './types.js';
