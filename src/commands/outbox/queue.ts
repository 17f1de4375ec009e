import type { MessageRenderer } from '../../messages/render.js';
import type { Journal, NewUpdate, OutboxItem } from '../journal/index.js';
import type { OutboxWriter } from '../run/index.js';
import { writeRestore } from './restore.js';

/**
 * The write side of the outbox: platform updates go into the journal's outbox table in the same
 * transaction as the command's state (the lifecycle, progress), then `wake()` rings the doorbell
 * the delivery (`delivery.ts`) waits on. Kept apart from the delivery so that writers need
 * nothing of it: the delivery is built last, over this. The run stage writes through it as its
 * `OutboxWriter`.
 */
export class OutboxQueue implements OutboxWriter {
  /** Seqs being delivered right now: a newer progress update must not delete them. */
  readonly sending = new Set<number>();
  /**
   * The update of each command that is on its way to the platform, and whether the command's
   * updates were dropped meanwhile (`drop`: the platform ended it, so that update may land after
   * the end).
   */
  private readonly onTheWire = new Map<string, { item: OutboxItem; overtaken: boolean }>();
  private rang = false;
  private waiter: (() => void) | undefined;

  /** `notesIn` renders the Notes of a restore (`drop`) in the staff's language. */
  constructor(
    private readonly journal: Journal,
    private readonly notesIn: MessageRenderer,
  ) {}

  /** An update of the command is leaving for the platform. */
  sent(item: OutboxItem): void {
    this.onTheWire.set(item.commandId, { item, overtaken: false });
  }

  /** Its update came back (or failed); returns whether it was overtaken by a `drop` meanwhile. */
  settled(commandId: string): boolean {
    const entry = this.onTheWire.get(commandId);
    this.onTheWire.delete(commandId);
    return entry?.overtaken === true;
  }

  /** Appends an update (superseding unsent progress, see `JournalOutbox.add`); returns its seq. */
  add(update: NewUpdate, at: number): number {
    return this.journal.outbox.add(update, at, this.sending);
  }

  /**
   * Drops every pending update of a command (the platform ended it). When one of them is on the
   * wire it may land after that end: a restore of the platform's end is written now, in the
   * caller's transaction, so that neither a lost answer nor a kill -9 can lose it
   * (`restore.ts`); it waits behind the update on the wire and is confirmed by a read
   * before it goes.
   */
  drop(commandId: string, at: number): void {
    this.journal.outbox.dropCommand(commandId);
    const entry = this.onTheWire.get(commandId);
    if (!entry) return;
    entry.overtaken = true;
    writeRestore({ journal: this.journal, notesIn: this.notesIn, outbox: this }, entry.item, at);
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
