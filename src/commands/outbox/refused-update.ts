import { TERMINAL_STATES } from '../../connector/wire.js';
import type { AgentError } from '../../errors.js';
import type { Journal, OutboxItem } from '../journal/index.js';
import { type EffectExecutor, type RereadDeps, rereadCommand } from '../run/index.js';
import type { RefusedUpdateJudge } from './ports.js';

export interface RefusedUpdatesDeps {
  journal: Journal;
  /** How the command is read again. */
  reread: RereadDeps;
  /** Applies the platform's end to a command that is gone. */
  executor: EffectExecutor;
}

/** The outbox delivery's `RefusedUpdateJudge`. What a refusal means: `judgeRefusedUpdate` below. */
export class RefusedUpdates implements RefusedUpdateJudge {
  constructor(private readonly deps: RefusedUpdatesDeps) {}

  judge(item: OutboxItem, error: AgentError, signal: AbortSignal): Promise<'gone' | 'ours'> {
    return judgeRefusedUpdate(this.deps, item, error, signal);
  }
}

/**
 * What a refused update (400, 403, 409) means, for the outbox delivery: the command is read again.
 * `ours` when the platform still has it active (or, for a 409, merely does not show it): only this
 * update is lost. `gone` otherwise — including a refused result of a command that
 * `commands/getAllByIds` no longer lists, since nothing sent about it can be delivered: the
 * command is settled as the platform has it and its pending updates are dropped. Rejects when the
 * re-read itself fails (the delivery retries later).
 */
async function judgeRefusedUpdate(
  deps: RefusedUpdatesDeps,
  item: OutboxItem,
  error: AgentError,
  signal: AbortSignal,
): Promise<'gone' | 'ours'> {
  const { journal, executor } = deps;
  const record = journal.get(item.commandId);
  if (!record) {
    journal.outbox.dropCommand(item.commandId);
    return 'gone';
  }
  const result = await rereadCommand(deps.reread, record, signal);
  // A state this agent does not know tells nothing about the refusal: keep the update.
  if (result.verdict === 'hold') return 'ours';
  const refusedResult = TERMINAL_STATES.includes(item.state) && error.code !== 'PLATFORM_CONFLICT';
  if (result.verdict === 'proceed' && (result.visible || !refusedResult)) return 'ours';
  const platformState = result.verdict === 'skip' ? result.platformState : undefined;
  executor.apply(record.id, { type: 'platformTerminal', platformState: platformState ?? 'Cancelled' });
  journal.outbox.dropCommand(record.id);
  return 'gone';
}
