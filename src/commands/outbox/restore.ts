import { type Message, textMessage } from '../../messages/message.js';
import type { MessageRenderer } from '../../messages/render.js';
import type { Journal, NewUpdate, OutboxItem } from '../journal/index.js';
import { cancelledOnPlatformNotes, doneDespiteCancelNotes } from '../rules/index.js';

/**
 * Putting back the platform's end after one of our updates landed on it.
 *
 * The interface document lets `commands/update` move a command from any state to the state given
 * (Part B › States and transitions). An update already on its way when staff cancel a command
 * therefore lands after the cancel and moves the command back (to Received, Processing, or our
 * result); the agent then sends nothing more about it, and the platform would show it open
 * forever. So when the platform ends a command while one of its updates is on the wire
 * (`OutboxQueue.drop`) and the journal has it Cancelled by the platform, a restore is written in
 * the same transaction as the cancel (`writeRestore`), not only when the update's answer comes
 * back, which a kill -9 or a lost answer would lose: `Cancelled` again, with Notes that keep the
 * staff's meaning (cancelled on the platform) and say what the device did. It waits behind the
 * update on the wire (one update per command at a time). When the platform took that update,
 * the restore is written again in the delivery's transaction (`restoreIfOvertaken`), replacing
 * the first, with Notes that say how the device's job ended by then. Before it is sent
 * (`RestoreConfirmation.confirm`, `restore-confirm.ts`) the command is read again: when the platform shows its end (the update had
 * landed before the cancel, was refused, or never arrived), the restore is dropped unsent. It is the one update the agent sends
 * about a command the platform ended, and the one move out of a terminal state it makes: putting
 * the platform's own end back. Other terminal states the platform may set are not put back.
 */

/**
 * Where a restore is written: the journal, and the outbox's write side (`OutboxQueue`); `notesIn`
 * renders its Notes in the staff's language, as every update's.
 */
export interface RestoreDeps {
  journal: Journal;
  notesIn: MessageRenderer;
  outbox: { add(update: NewUpdate, at: number): number };
}

/** Writes the restore for `onTheWire`, an update that may land after the cancel, in the caller's transaction. */
export function writeRestore(deps: RestoreDeps, item: OutboxItem, at: number): void {
  const record = deps.journal.get(item.commandId);
  if (record?.state !== 'Cancelled') return;
  for (const pending of deps.journal.outbox.pendingFor(item.commandId)) {
    if (pending.state === 'Cancelled') deps.journal.outbox.remove(pending.seq);
  }
  const notes = deps.notesIn.render(restoreNotes(item, record));
  deps.outbox.add({ commandId: item.commandId, state: 'Cancelled', notes }, at);
}

/** The platform took `item`: when it was overtaken, the restore is written again with today's Notes. */
export function restoreIfOvertaken(
  deps: RestoreDeps,
  item: OutboxItem & { overtaken: boolean },
  at: number,
): void {
  if (item.overtaken) writeRestore(deps, item, at);
}

/**
 * What the restore says: the command's own notes once settled, else the cancel and the result
 * (`item.notes`, the update's words, already in the staff's language).
 */
function restoreNotes(item: OutboxItem, record: { phase: string; notes?: Message }): Message {
  if (item.state === 'Processed') return doneDespiteCancelNotes(textMessage(item.notes ?? ''));
  if (item.state === 'Error' || record.phase === 'cancelling') return cancelledOnPlatformNotes();
  return record.notes ?? cancelledOnPlatformNotes();
}
