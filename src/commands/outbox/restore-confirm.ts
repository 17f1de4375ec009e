import { COMMAND_STATES } from '../../connector/wire.js';
import { toAgentError } from '../../errors.js';
import type { OutboxItem } from '../journal/index.js';
import { fetchCommands, type RereadDeps } from '../run/index.js';
import type { RestoreConfirmer } from './ports.js';

/**
 * The read before a restore of the platform's end goes (`restore.ts`): the outbox delivery's
 * `RestoreConfirmer`. What the read means: `confirmRestore` below.
 */
export class RestoreConfirmation implements RestoreConfirmer {
  /** `reread`: how the command is read again. */
  constructor(private readonly reread: RereadDeps) {}

  confirm(item: OutboxItem, signal: AbortSignal): Promise<'send' | 'skip'> {
    return confirmRestore(this.reread, item, signal);
  }
}

/**
 * Whether a restore must still go: `skip` when a read shows the platform's own end (Cancelled),
 * the command gone, or a state this agent does not know; `send` when it shows any other state
 * this agent knows — our late update, a result (Processed, Error) included. A command of the
 * `commands` source that the read does not return (`commands/getAllByIds` returns neither
 * Processing nor terminal commands) is `send` once its job had started, when the late update
 * may have been Processing or a result (a Cancelled sent over Cancelled changes no state), and
 * `skip` before, when it could only have been Received, which the read would have returned.
 * Rejects when the platform cannot be read.
 */
async function confirmRestore(
  deps: RereadDeps,
  item: OutboxItem,
  signal: AbortSignal,
): Promise<'send' | 'skip'> {
  const record = deps.journal.get(item.commandId);
  if (!record) return 'skip';
  const source = record.source ?? 'commands';
  let found: Awaited<ReturnType<typeof fetchCommands>>;
  try {
    found = await fetchCommands(deps, source, [record.id], signal);
  } catch (e) {
    const error = toAgentError(e);
    if (error.code === 'PLATFORM_REJECTED' || error.code === 'PLATFORM_FORBIDDEN') return 'skip';
    throw error;
  }
  const shown = found.get(record.id);
  if (!shown) return source === 'commands' && record.startedAt !== undefined ? 'send' : 'skip';
  const state = shown.ok ? shown.command.state : shown.state;
  if (state === 'Cancelled' || !COMMAND_STATES.some((s) => s === state)) return 'skip';
  return 'send';
}
