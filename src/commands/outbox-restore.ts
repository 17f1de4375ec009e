import type { Journal } from './journal.js';
import type { OutboxItem } from './journal-outbox.js';
import { CANCELLED_ON_PLATFORM_NOTES, doneDespiteCancelNotes } from './notes.js';
import type { TakenUpdate } from './outbox-delivery.js';
import type { OutboxQueue } from './outbox-queue.js';
import { type RereadDeps, rereadCommand } from './reread.js';

/**
 * Putting back the platform's end after one of our updates landed on it.
 *
 * The interface document lets `commands/update` move a command from any state to the state given
 * (Part B › States and transitions). An update already on its way when staff cancel a command
 * therefore lands after the cancel and moves the command back (to Received, Processing, or our
 * result); the agent then sends nothing more about it, and the platform would show it open
 * forever. So when the platform took an update that was overtaken — its command's updates were
 * dropped because the platform ended it while that update was on the wire (`OutboxQueue.drop`) —
 * and the journal has the command Cancelled by the platform, a restore is written in the same
 * transaction: `Cancelled` again, with Notes that keep the staff's meaning (cancelled on the
 * platform) and say what the device did. Before it is sent (`confirmRestore`) the command is read
 * again: when the platform shows its end already (our update had landed before the cancel), the
 * restore is dropped unsent. It is the one update the agent sends about a command the platform
 * ended, and the one move out of a terminal state it makes: putting the platform's own end back.
 * Other terminal states the platform may set are not put back.
 */

/** Writes the restore for an overtaken update, inside the delivery's transaction. */
export function restoreIfOvertaken(
  deps: { journal: Journal; outbox: OutboxQueue },
  item: TakenUpdate,
  at: number,
): void {
  if (!item.overtaken) return;
  const record = deps.journal.get(item.commandId);
  if (record?.state !== 'Cancelled') return;
  deps.outbox.add({ commandId: item.commandId, state: 'Cancelled', notes: restoreNotes(item, record) }, at);
}

/** What the restore says: the command's own notes once settled, else the cancel and the result. */
function restoreNotes(item: OutboxItem, record: { phase: string; notes?: string }): string {
  if (item.state === 'Processed') return doneDespiteCancelNotes(item.notes ?? '');
  if (item.state === 'Error' || record.phase === 'cancelling') return CANCELLED_ON_PLATFORM_NOTES;
  return record.notes ?? CANCELLED_ON_PLATFORM_NOTES;
}

/**
 * Whether a restore must still go: `skip` when a read shows the command terminal on the
 * platform, `send` when it shows it open or cannot show it (`commands/getAllByIds` does not
 * return a command in Processing). Rejects when the platform cannot be read.
 */
export async function confirmRestore(
  deps: RereadDeps,
  item: OutboxItem,
  signal: AbortSignal,
): Promise<'send' | 'skip'> {
  const record = deps.journal.get(item.commandId);
  if (!record) return 'skip';
  const result = await rereadCommand(deps, record, signal);
  return result.verdict === 'skip' ? 'skip' : 'send';
}
