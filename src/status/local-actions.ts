import type { FastifyReply } from 'fastify';
import { type Clock, systemClock } from '../clock.js';
import { isAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { isLoopback } from '../loopback.js';
import type { MessageRenderer } from '../messages/render.js';
import { pageMessages } from './messages.js';

/**
 * Actions a person (or any local process) can trigger from the status page — cut keys today;
 * void a receipt, X/Z report, test page later — go through one guard:
 *
 * - **bounded**: each action validates its own sizes (`maxKeyCount` for cut keys) before it gets
 *   here;
 * - **rate-limited**: at most `perMinute` actions in any 60 s, all actions together (they share
 *   the platform's request budget and the devices); beyond it `run` throws `ActionLimited`, which
 *   the page answers with 429, `Retry-After` and a sentence;
 * - **audited**: one log line per attempt, `audit=<action>`: who (`local` without a page token;
 *   `local-with-token` / `remote-with-token` with one) and from which address, what (device,
 *   reservation, count …: ids and numbers, never guest data or tokens), and the result (the
 *   command id, or the error code).
 *
 * The CLI writes the same audit line (`auditLine`); it is not rate-limited here: it needs the
 * platform's tokens, so whoever runs it could call the platform directly anyway.
 */

export interface LocalActionLimits {
  /** Most keys one cut-keys action may ask for. */
  maxKeyCount: number;
  /** Most actions from the page in any 60 seconds. */
  perMinute: number;
}

export const DEFAULT_LOCAL_ACTION_LIMITS: Readonly<LocalActionLimits> = Object.freeze({
  maxKeyCount: 10,
  perMinute: 10,
});

export interface Actor {
  who: 'local' | 'local-with-token' | 'remote-with-token' | 'command-line';
  /** The peer address, for the page. */
  from?: string;
}

/** Who sent a page request: whether the page requires its token, and the peer's address. */
export function actorOf(address: string | undefined, tokenRequired: boolean): Actor {
  const from = address ?? 'unknown';
  const local = address !== undefined && isLoopback(address);
  return { who: tokenRequired ? (local ? 'local-with-token' : 'remote-with-token') : 'local', from };
}

export type AuditFacts = Record<string, string | number>;

/** One audit line: `audit=<action> who=… from=… <what…> result=… commandId=…|code=…`. */
export function auditLine(
  log: Logger,
  action: string,
  actor: Actor,
  what: AuditFacts,
  result: AuditFacts,
): void {
  const fields = {
    audit: action,
    who: actor.who,
    ...(actor.from ? { from: actor.from } : {}),
    ...what,
    ...result,
  };
  if (result.result === 'done') log.info(`local action ${action}`, fields);
  else log.warn(`local action ${action} not done`, fields);
}

/** Thrown by `run` beyond the per-minute limit; nothing was done. */
export class ActionLimited extends Error {
  override readonly name = 'ActionLimited';
  constructor(
    readonly retryAfterMs: number,
    readonly perMinute: number,
  ) {
    super(
      `Too many actions from the status page: at most ${perMinute} a minute. Try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`,
    );
  }
}

/**
 * The HTTP answer to an `ActionLimited`: 429 with `Retry-After` in whole seconds, and the
 * sentence as `{error: {code: 'TOO_MANY_ACTIONS', notes}}` for a script or as plain text for a form.
 */
export function replyLimited(
  reply: FastifyReply,
  error: ActionLimited,
  json: boolean,
  say: MessageRenderer,
): FastifyReply {
  const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
  reply.code(429).header('retry-after', String(seconds));
  const notes = say.render(pageMessages.tooManyActions({ perMinute: error.perMinute, seconds }));
  return json
    ? reply.send({ error: { code: 'TOO_MANY_ACTIONS', notes } })
    : reply.type('text/plain; charset=utf-8').send(`${notes}\n`);
}

export interface LocalActionsOptions {
  log: Logger;
  limits?: Partial<LocalActionLimits>;
  clock?: Clock;
}

export class LocalActions {
  readonly limits: LocalActionLimits;
  private readonly clock: Clock;
  private stamps: number[] = [];

  constructor(private readonly options: LocalActionsOptions) {
    this.limits = { ...DEFAULT_LOCAL_ACTION_LIMITS, ...options.limits };
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Runs `perform` if the per-minute limit allows, auditing the attempt either way; `describe`
   * turns its value into the audit's result facts (e.g. `{commandId}`). Rejects with
   * `ActionLimited` (nothing done), or with whatever `perform` rejected with.
   */
  async run<T>(
    action: string,
    actor: Actor,
    what: AuditFacts,
    perform: () => Promise<T>,
    describe: (value: T) => AuditFacts,
  ): Promise<T> {
    const { log } = this.options;
    const now = this.clock.now();
    this.stamps = this.stamps.filter((at) => at > now - 60_000);
    if (this.stamps.length >= this.limits.perMinute) {
      const retryAfterMs = (this.stamps[0] as number) + 60_000 - now;
      auditLine(log, action, actor, what, { result: 'refused', code: 'TOO_MANY_ACTIONS' });
      throw new ActionLimited(retryAfterMs, this.limits.perMinute);
    }
    this.stamps.push(now);
    try {
      const value = await perform();
      auditLine(log, action, actor, what, { result: 'done', ...describe(value) });
      return value;
    } catch (error) {
      auditLine(log, action, actor, what, {
        result: 'failed',
        code: isAgentError(error) ? error.code : 'INTERNAL',
      });
      throw error;
    }
  }
}
