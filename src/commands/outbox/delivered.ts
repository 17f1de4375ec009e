import type { Clock } from '../../clock.js';
import type { OutboxItem } from '../journal/index.js';
import type { EffectExecutor } from '../run/index.js';
import type { OutboxDeliveryEvents, TakenUpdate } from './ports.js';
import { type RestoreDeps, restoreIfOvertaken } from './restore.js';

export interface DeliveredUpdatesDeps {
  /** Applies the `delivered` event of each command, in one transaction with the rows' removal. */
  executor: EffectExecutor;
  /** Where a restore is written again when the update landed after the platform ended the command. */
  restore: RestoreDeps;
  clock: Clock;
}

/**
 * Step 6 (and step 12) of a command's life: the platform took an update. `OutboxDelivery.record`
 * calls `delivered` with every update taken in one turn of the event loop (its group commit).
 */
export class DeliveredUpdates implements OutboxDeliveryEvents {
  constructor(private readonly deps: DeliveredUpdatesDeps) {}

  /**
   * In one journal transaction: each row goes, its command gets the machine's `delivered` event
   * (Received → *received*, a result → *closed*), and an update that was overtaken by the
   * platform's end has its restore written again (`restoreIfOvertaken`). The effects run once it
   * is committed. Throws when the journal cannot be written (the rows stay, to be sent again).
   */
  delivered(items: readonly TakenUpdate[], remove: (item: OutboxItem) => void): void {
    const { executor, restore, clock } = this.deps;
    executor.applyMany(() => {
      for (const item of items) {
        remove(item);
        executor.apply(item.commandId, { type: 'delivered', state: item.state });
        restoreIfOvertaken(restore, item, clock.now());
      }
    });
  }
}
