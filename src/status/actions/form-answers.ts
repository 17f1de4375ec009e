import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../log.js';
import type { MessageRenderer } from '../../messages/render.js';
import { type Caller, formRefusal } from '../callers/index.js';
import type { ActionNotice } from '../page/index.js';

/**
 * What every action form of the page does alike (Cut keys, a device's action, "try delivery
 * now"): a page session's POST must first show it comes from our own page, and the answer is
 * JSON with a status for a script, or, for a plain form, a redirect back to the page, which shows
 * the outcome by the id of a notice kept here — never text from the address.
 */

/** How many outcomes of plain form submissions are kept for the pages that follow them. */
const KEPT = 20;

/** The outcomes of one kind of action, kept (the latest `KEPT`) for the page that follows each redirect. */
export class NoticeBoard {
  private readonly notices = new Map<string, ActionNotice>();

  /** Keeps `notice`; returns the id the redirect names. */
  keep(notice: ActionNotice): string {
    const id = randomBytes(9).toString('base64url');
    this.notices.set(id, notice);
    for (const old of this.notices.keys()) if (this.notices.size > KEPT) this.notices.delete(old);
    return id;
  }

  /** The notice a page address names (`?action=<id>`), when it is an id of ours. */
  find(id: unknown): ActionNotice | undefined {
    return typeof id === 'string' && /^[\w-]{1,20}$/.test(id) ? this.notices.get(id) : undefined;
  }
}

/**
 * The 403 for a page session's POST that is not from our own page (its Origin or Referer, its
 * CSRF token: `formRefusal`), logged as `<what> refused: <reason>`; undefined when the request
 * may go on. The staff socket and the tokens need no such proof: no browser sends them across
 * sites.
 */
export function refuseForeignForm(
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
  what: string,
  deps: { log: Logger; say: MessageRenderer },
): FastifyReply | undefined {
  if (caller.kind !== 'session') return undefined;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const refused = formRefusal(request.headers, body, caller.session.csrfToken);
  if (!refused) return undefined;
  deps.log.warn(`${what} refused: ${refused.reason}`, refused.logFields);
  return reply.code(403).send({ error: { code: refused.code, notes: deps.say.render(refused.notes) } });
}

/**
 * How one request of an action is answered: `payload` with `status` to a script (`json`), else a
 * redirect to the page address `back` makes of the kept notice's id.
 */
export function formAnswer(
  reply: FastifyReply,
  json: boolean,
  board: NoticeBoard,
  back: (noticeId: string) => string,
): (status: number, notice: ActionNotice, payload: object) => FastifyReply {
  return (status, notice, payload) =>
    json
      ? reply.code(status).send(payload)
      : reply
          .code(303)
          .header('location', back(board.keep(notice)))
          .send();
}

/** How the audit line says an action came in: from the page, the staff socket or a script's token. */
export function viaOf(caller: Caller): 'page' | 'socket' | 'api' {
  return caller.kind === 'session' ? 'page' : caller.kind === 'staff-socket' ? 'socket' : 'api';
}
