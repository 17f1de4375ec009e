import type { Journal } from './journal.js';
import type { NewUpdate } from './journal-outbox.js';

/**
 * The write side of the outbox: platform updates go into the journal's outbox table in the same
 * transaction as the command's state (the lifecycle, progress), then `wake()` rings the doorbell
 * the delivery (`outbox-delivery.ts`) waits on. Kept apart from the delivery so that writers need
 * nothing of it: the delivery is built last, over this.
 */
export class OutboxQueue {
  /** Seqs being delivered right now: a newer progress update must not delete them. */
  readonly sending = new Set<number>();
  private rang = false;
  private waiter: (() => void) | undefined;

  constructor(private readonly journal: Journal) {}

  /** Appends an update (superseding unsent progress, see `JournalOutbox.add`); returns its seq. */
  add(update: NewUpdate, at: number): number {
    return this.journal.outbox.add(update, at, this.sending);
  }

  /** Drops every pending update of a command. */
  drop(commandId: string): void {
    this.journal.outbox.dropCommand(commandId);
  }

  /** New rows were committed (or the delivery should look again). Cheap; call after every write. */
  wake(): void {
    this.rang = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** Forgets earlier rings: the delivery is about to read what is committed now. */
  listen(): void {
    this.rang = false;
  }

  /** Resolves at the first ring since `listen()`, at once when one came already. */
  rung(): Promise<void> {
    if (this.rang) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }
}
