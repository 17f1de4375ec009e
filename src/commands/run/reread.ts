import type { ConnectorApi, RequestPriority } from '../../connector/api.js';
import type { NormalizedItem, PlatformCommand } from '../../connector/model.js';
import { ACTIVE_STATES, COMMAND_STATES, type CommandState, TERMINAL_STATES } from '../../connector/wire.js';
import { toAgentError } from '../../errors.js';
import { enterpriseFilter } from '../intake/index.js';
import type { CommandRecord, Journal } from '../journal/index.js';

/**
 * Re-reading commands on the platform, right before their first side effect and when the
 * platform refuses an update. Fiscal commands seen through `fiscalMachineCommands/getAll` are read
 * there by id (any state comes back); others through `commands/getAllByIds`, which returns active
 * commands only, so "not returned" means cancelled or gone — unless the platform already has it
 * in Processing from us, which that operation cannot show.
 */

export type RereadResult =
  /** `visible` is false when the platform cannot show it (Processing from us, `commands` source). */
  | { verdict: 'proceed'; visible: boolean; command?: PlatformCommand }
  | { verdict: 'skip'; platformState?: CommandState }
  /**
   * The platform shows the command in a state this agent does not know (or in none): it must not
   * start. It stays accepted and is read again later.
   */
  | { verdict: 'hold'; platformState: string };

export interface RereadDeps {
  connector: ConnectorApi;
  journal: Journal;
  enterpriseIds?: readonly string[];
}

export type CommandSource = PlatformCommand['source'];

/** The most ids one read may carry (both operations take 1..1000). */
export const MAX_REREAD_IDS = 1000;

function itemId(item: NormalizedItem): string | undefined {
  return item.ok ? item.command.id : item.id;
}

/**
 * Reads up to 1000 commands of one source by id in one request. The map holds what came back; an
 * id that is absent was not returned. A 400/403 (some id unknown or refused) rejects with the
 * connector's AgentError like any other failure; callers decide what it means.
 */
export async function fetchCommands(
  deps: RereadDeps,
  source: CommandSource,
  ids: readonly string[],
  signal: AbortSignal,
  priority: RequestPriority = 'normal',
): Promise<Map<string, NormalizedItem>> {
  const found = new Map<string, NormalizedItem>();
  const wanted = new Set(ids);
  const keep = (items: readonly NormalizedItem[]) => {
    for (const item of items) {
      const id = itemId(item);
      if (id !== undefined && wanted.has(id)) found.set(id, item);
    }
  };
  if (source === 'fiscalMachineCommands') {
    const enterprise = enterpriseFilter(deps.enterpriseIds);
    // Follow the cursor until every id came back (a platform may cap Count), no further.
    for await (const page of deps.connector.fiscalCommands(
      { CommandIds: [...ids], ...enterprise },
      { priority, signal, pageSize: Math.min(MAX_REREAD_IDS, Math.max(10, ids.length)) },
    )) {
      keep(page);
      if (found.size >= wanted.size) break;
    }
    return found;
  }
  keep(await deps.connector.commandsByIds(ids, { priority, signal }));
  return found;
}

/**
 * True when the platform has the command in Processing from us: it was started (so Processing was
 * queued) and that update is no longer pending.
 */
function processingDelivered(deps: RereadDeps, record: CommandRecord): boolean {
  if (record.startedAt === undefined) return false;
  return !deps.journal.outbox
    .pendingFor(record.id)
    .some((item) => item.state === 'Processing' && !item.progressOnly);
}

/**
 * What one read of `record` means: `skip` when the platform has the command terminal or no
 * longer knows it (`item` undefined: not returned); `hold` when it shows a state this agent does
 * not know (never a reason to proceed); `proceed` otherwise, with the fresh command when it came
 * back well-formed from the record's own source.
 */
export function verdictOf(
  deps: RereadDeps,
  record: CommandRecord,
  item: NormalizedItem | undefined,
): RereadResult {
  if (!item) {
    if (record.source !== 'fiscalMachineCommands' && processingDelivered(deps, record)) {
      return { verdict: 'proceed', visible: false };
    }
    return { verdict: 'skip' };
  }
  const shown = item.ok ? item.command.state : item.state;
  const state = COMMAND_STATES.find((s) => s === shown);
  if (state === undefined) return { verdict: 'hold', platformState: shown ?? '(none)' };
  if (TERMINAL_STATES.includes(state)) return { verdict: 'skip', platformState: state };
  if (item.ok && (ACTIVE_STATES.includes(item.command.state) || item.command.state === 'Processing')) {
    // A copy from the other source has the other shape: keep the journaled one then.
    const sameSource = (item.command.source ?? 'commands') === (record.source ?? 'commands');
    return sameSource
      ? { verdict: 'proceed', visible: true, command: item.command }
      : { verdict: 'proceed', visible: true };
  }
  // Came back malformed this time: it is still there and not terminal; run what was journaled.
  return { verdict: 'proceed', visible: true };
}

/**
 * One re-read of one command (the outbox's check after a refused update). A 400/403 for the id
 * counts as gone. Rejects with the connector's AgentError for anything else.
 */
export async function rereadCommand(
  deps: RereadDeps,
  record: CommandRecord,
  signal: AbortSignal,
): Promise<RereadResult> {
  let found: Map<string, NormalizedItem>;
  try {
    found = await fetchCommands(deps, record.source ?? 'commands', [record.id], signal);
  } catch (e) {
    const error = toAgentError(e);
    if (error.code === 'PLATFORM_REJECTED' || error.code === 'PLATFORM_FORBIDDEN') return { verdict: 'skip' };
    throw error;
  }
  return verdictOf(deps, record, found.get(record.id));
}
