/**
 * The outbox: the platform's updates, journaled with the state they report, delivered in order
 * per command and at least once. Its write side (`queue.ts`, the run stage's `OutboxWriter`), the
 * delivery loop (`delivery.ts`) and, behind its ports (`ports.ts`), what a delivery means
 * (`delivered.ts`: step 6), what a refusal means (`refused-update.ts`) and the restore of the
 * platform's end after a late update (`restore.ts`, `restore-confirm.ts`). The stage's public
 * surface: the engine imports it only from here.
 */

export { DeliveredUpdates, type DeliveredUpdatesDeps } from './delivered.js';
export {
  DEFAULT_OUTBOX_TUNING,
  OutboxDelivery,
  type OutboxDeliveryOptions,
  type OutboxTrouble,
  type OutboxTuning,
} from './delivery.js';
export type { OutboxDeliveryEvents, RefusedUpdateJudge, RestoreConfirmer, TakenUpdate } from './ports.js';
export { OutboxQueue } from './queue.js';
export { RefusedUpdates, type RefusedUpdatesDeps } from './refused-update.js';
export type { RestoreDeps } from './restore.js';
export { RestoreConfirmation } from './restore-confirm.js';
