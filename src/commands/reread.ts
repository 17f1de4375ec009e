import type { ConnectorApi } from '../connector/api.js';
import type { NormalizedItem, PlatformCommand } from '../connector/model.js';
import { ACTIVE_STATES, type CommandState, TERMINAL_STATES } from '../connector/wire.js';
import { toAgentError } from '../errors.js';
import type { CommandRecord, Journal } from './journal.js';

/**
 * Re-reading one command on the platform, right before its first side effect and when the
 * platform refuses an update. Fiscal commands seen through `fiscalMachineCommands/getAll` are read
 * there by id (any state comes back); others through `commands/getAllByIds`, which returns active
 * commands only, so "not returned" means cancelled or gone — unless the platform already has it
 * in Processing from us, which that operation cannot show.
 */

export type RereadResult =
  /** `visible` is false when the platform cannot show it (Processing from us, `commands` source). */
  | { verdict: 'proceed'; visible: boolean; command?: PlatformCommand }
  | { verdict: 'skip'; platformState?: CommandState };

export interface RereadDeps {
  connector: ConnectorApi;
  journal: Journal;
  enterpriseIds?: readonly string[];
}

async function fetchById(
  deps: RereadDeps,
  record: CommandRecord,
  signal: AbortSignal,
): Promise<NormalizedItem[]> {
  if (record.source === 'fiscalMachineCommands') {
    const items: NormalizedItem[] = [];
    const enterprise = deps.enterpriseIds?.length ? { EnterpriseIds: [...deps.enterpriseIds] } : {};
    for await (const page of deps.connector.fiscalCommands(
      { CommandIds: [record.id], ...enterprise },
      { priority: 'normal', signal, pageSize: 10, maxPages: 1 },
    )) {
      items.push(...page);
    }
    return items;
  }
  return deps.connector.commandsByIds([record.id], { priority: 'normal', signal });
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
 * One re-read. `skip` when the platform has the command terminal or no longer knows it;
 * `proceed` (with the fresh command when it came back well-formed) otherwise. A 400/403 for the
 * id counts as gone. Rejects with the connector's AgentError for anything else.
 */
export async function rereadCommand(
  deps: RereadDeps,
  record: CommandRecord,
  signal: AbortSignal,
): Promise<RereadResult> {
  let items: NormalizedItem[];
  try {
    items = await fetchById(deps, record, signal);
  } catch (e) {
    const error = toAgentError(e);
    if (error.code === 'PLATFORM_REJECTED' || error.code === 'PLATFORM_FORBIDDEN') return { verdict: 'skip' };
    throw error;
  }
  const item = items.find((i) => (i.ok ? i.command.id : i.id) === record.id);
  if (!item) {
    if (record.source !== 'fiscalMachineCommands' && processingDelivered(deps, record)) {
      return { verdict: 'proceed', visible: false };
    }
    return { verdict: 'skip' };
  }
  const state = item.ok ? item.command.state : (item.state as CommandState | undefined);
  if (state !== undefined && TERMINAL_STATES.includes(state))
    return { verdict: 'skip', platformState: state };
  if (item.ok && (ACTIVE_STATES.includes(item.command.state) || item.command.state === 'Processing')) {
    return { verdict: 'proceed', visible: true, command: item.command };
  }
  // Came back malformed this time: it is still there and not terminal; run what was journaled.
  return { verdict: 'proceed', visible: true };
}
