import type { AgentError } from '../../errors.js';
import type { OutboxItem } from '../journal/index.js';

/**
 * What the outbox delivery needs to be told or asked about a command, as named ports: the engine
 * hands it the objects of this stage that implement them (`DeliveredUpdates`, `RefusedUpdates`,
 * `RestoreConfirmation`), so the delivery loop itself only sends, records and backs off.
 */

/** An update the platform took; `overtaken` when the platform ended the command meanwhile. */
export interface TakenUpdate extends OutboxItem {
  overtaken: boolean;
}

/** Step 6 and step 12: what the platform's taking an update means. Implemented by `DeliveredUpdates`. */
export interface OutboxDeliveryEvents {
  /**
   * The platform took `items`: in one journal transaction, remove each row (`remove`) and apply
   * what its delivery means (an `overtaken` one may have landed after the platform ended the
   * command). Throws when the journal cannot be written (the rows stay).
   */
  delivered(items: readonly TakenUpdate[], remove: (item: OutboxItem) => void): void;
}

/** What a refused update (400, 403, 409) means. Implemented by `RefusedUpdates`. */
export interface RefusedUpdateJudge {
  /**
   * Re-reads a command whose update was refused: `gone` when the platform ended it or no longer
   * has it (its updates are dropped), `ours` when only this update is lost. Rejects when the
   * re-read itself fails; `signal` fires when the outbox stops.
   */
  judge(item: OutboxItem, error: AgentError, signal: AbortSignal): Promise<'gone' | 'ours'>;
}

/**
 * Before a restore of the platform's end (a `Cancelled` update, see `restore.ts`) is sent.
 * Implemented by `RestoreConfirmation`.
 */
export interface RestoreConfirmer {
  /**
   * `send` when the platform may show our state instead of its end, `skip` when it shows its end.
   * Rejects when the platform cannot be read (the delivery retries later).
   */
  confirm(item: OutboxItem, signal: AbortSignal): Promise<'send' | 'skip'>;
}
