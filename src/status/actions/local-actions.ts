import type { FastifyReply } from 'fastify';
import { type Clock, systemClock } from '../../clock.js';
import { isAgentError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { isLoopback } from '../../loopback.js';
import type { MessageRenderer } from '../../messages/render.js';
import type { Caller } from '../callers/index.js';
import { pageMessages } from '../page/index.js';

/**
 * Actions staff trigger through the agent — cut keys, void a receipt, X/Z report — go through one
 * guard, after the caller proved who they are (a page session, the status token, or the staff
 * socket's peer uid: src/status/callers/callers.ts) and after the action itself was found valid (a known
 * device and action, a well-formed form):
 *
 * - **bounded**: each action validates its own sizes (`maxKeyCount` for cut keys) before it gets
 *   here;
 * - **rate-limited per caller**: at most `perMinute` actions in any 60 s from one caller (one page
 *   session, one Unix user on the staff socket, one address with the token); beyond it `run`
 *   throws `ActionLimited`, which the page answers with 429, `Retry-After` and a sentence. One
 *   caller's refused or excess requests never use another caller's budget, so nobody can lock the
 *   desk out of its Z report;
 * - **audited**: one log line per attempt, `audit=<action>`: who (`staff-socket` with the peer's
 *   uid and user name; `page` with the session and who opened it; `local-with-token` /
 *   `remote-with-token`) and from which address, what (device, reservation, count, the action's
 *   declared fields …: ids and numbers, never guest data or tokens), and the result (the command
 *   id, or the error code).
 *
 * The CLI's `cut-keys` writes the same audit line (`auditLine`); it is not rate-limited here: it
 * needs the platform's tokens, so whoever runs it could call the platform directly anyway.
 */

export interface LocalActionLimits {
  /** Most keys one cut-keys action may ask for. */
  maxKeyCount: number;
  /** Most actions from one caller (page session, Unix user, token address) in any 60 seconds. */
  perMinute: number;
}

export const DEFAULT_LOCAL_ACTION_LIMITS: Readonly<LocalActionLimits> = Object.freeze({
  maxKeyCount: 10,
  perMinute: 10,
});

/** Who asked for an action, as the audit line names them. */
export interface Actor {
  who: 'staff-socket' | 'page' | 'local-with-token' | 'remote-with-token' | 'command-line';
  /** The peer address (page, token), or the user the command line ran as. */
  from?: string;
  /** The Unix user: the staff socket's peer, or who asked for the page session's login address. */
  uid?: number;
  user?: string;
  /** The page session's public id (never the cookie). */
  session?: string;
  /** How the page session was opened: a `frontdesk-agent login` address, the status token, the demo's start address. */
  login?: string;
}

/** Who sent a request with the status token: from this PC or from elsewhere, and the address. */
export function tokenActorOf(address: string | undefined): Actor {
  const from = address ?? 'unknown';
  const local = address !== undefined && isLoopback(address);
  return { who: local ? 'local-with-token' : 'remote-with-token', from };
}

/** The audit's view of an authenticated caller. */
export function actorOf(caller: Caller): Actor {
  switch (caller.kind) {
    case 'staff-socket':
      return {
        who: 'staff-socket',
        uid: caller.peer.uid,
        ...(caller.peer.user ? { user: caller.peer.user } : {}),
      };
    case 'session': {
      const { identity } = caller.session;
      return {
        who: 'page',
        from: caller.peer.address,
        session: caller.session.id,
        login: identity.login,
        ...(identity.uid !== undefined ? { uid: identity.uid } : {}),
        ...(identity.user ? { user: identity.user } : {}),
      };
    }
    case 'token':
      return {
        ...tokenActorOf(caller.peer.address),
        ...(caller.peer.uid !== undefined ? { uid: caller.peer.uid } : {}),
      };
    default:
      // The server answers the others itself; an action never sees one.
      throw new Error(`no actor for a caller who may not act (${caller.kind})`);
  }
}

/** The rate-limit bucket of an actor: one per page session, per Unix user, per token address. */
export function bucketOf(actor: Actor): string {
  if (actor.who === 'staff-socket') return `uid:${actor.uid ?? 'unknown'}`;
  if (actor.who === 'page') return `session:${actor.session ?? 'unknown'}`;
  return `${actor.who}:${actor.from ?? 'unknown'}`;
}

export type AuditFacts = Record<string, string | number>;

/**
 * One audit line: `audit=<action> who=… from=… uid=… user=… <what…> result=… commandId=…|code=…`.
 * `what` must hold only names the code chose (never a request's own keys); the logger quotes any
 * odd name and escapes every value anyway (src/log.ts).
 */
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
    ...(actor.uid !== undefined ? { uid: actor.uid } : {}),
    ...(actor.user ? { user: actor.user } : {}),
    ...(actor.session ? { session: actor.session } : {}),
    ...(actor.login ? { login: actor.login } : {}),
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
  /** Each caller's recent start times (bucketOf), oldest first; emptied buckets are dropped. */
  private readonly stamps = new Map<string, number[]>();

  constructor(private readonly options: LocalActionsOptions) {
    this.limits = { ...DEFAULT_LOCAL_ACTION_LIMITS, ...options.limits };
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Runs `perform` if the actor's per-minute limit allows, auditing the attempt either way;
   * `describe` turns its value into the audit's result facts (e.g. `{commandId}`). Rejects with
   * `ActionLimited` (nothing done), or with whatever `perform` rejected with. Call it only once
   * the request is known valid: every call takes a slot of the actor's budget.
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
    for (const [key, times] of this.stamps) {
      const recent = times.filter((at) => at > now - 60_000);
      if (recent.length === 0) this.stamps.delete(key);
      else this.stamps.set(key, recent);
    }
    const bucket = bucketOf(actor);
    const stamps = this.stamps.get(bucket) ?? [];
    if (stamps.length >= this.limits.perMinute) {
      const retryAfterMs = (stamps[0] as number) + 60_000 - now;
      auditLine(log, action, actor, what, { result: 'refused', code: 'TOO_MANY_ACTIONS' });
      throw new ActionLimited(retryAfterMs, this.limits.perMinute);
    }
    stamps.push(now);
    this.stamps.set(bucket, stamps);
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
