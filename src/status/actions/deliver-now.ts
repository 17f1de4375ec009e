import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorCodeNote, isAgentError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Locale } from '../../messages/catalogue.js';
import { type MessageRenderer, messageRenderer } from '../../messages/render.js';
import type { StatusSource } from '../../status-model.js';
import type { Caller } from '../callers/index.js';
import { wantsJson } from '../callers/index.js';
import { deliverNowWords, queueMessages } from '../page/index.js';
import { formAnswer, NoticeBoard, refuseForeignForm, viaOf } from './form-answers.js';
import { ActionLimited, actorOf, type LocalActions, replyLimited } from './local-actions.js';

/**
 * `POST /outbox/deliver-now`: staff's "Try delivery now" (`StatusSource.deliverNow`), for a
 * caller who proved who they are (callers.ts). From a page session it needs the page's Origin and
 * CSRF token, as every action does (`formRefusal`); the staff socket and the status token need
 * neither. Every attempt goes through `LocalActions`: rate-limited per caller (429,
 * `Retry-After`, a sentence) and audited (`audit=deliver-now`, who, the updates waiting, whether
 * a pause was lifted). It cannot bypass the platform's rate limit: the answer says until when it
 * holds.
 *
 * A script gets `{notes, pending, lifted, rateLimitedUntil?}` or `{error: {code, notes}}`; a plain
 * form submission is redirected back to the page, which shows the outcome by an id it keeps
 * (`?queue=<id>`).
 */

export interface DeliverNowDeps {
  source: StatusSource;
  log: Logger;
  actions: LocalActions;
  callerOf(request: FastifyRequest): Caller;
  say: MessageRenderer;
  /** The page's language: the answer's times are in the property's zone, as on the page. */
  locale: Locale;
}

export function registerDeliverNow(app: FastifyInstance, deps: DeliverNowDeps): NoticeBoard {
  const { source, log, actions, say } = deps;
  const notices = new NoticeBoard();
  const title = say.render(queueMessages.deliverNowLabel());

  app.post('/outbox/deliver-now', async (request, reply) => {
    const caller = deps.callerOf(request);
    const refused = refuseForeignForm(request, reply, caller, 'deliver now', deps);
    if (refused) return refused;
    const json = wantsJson(request.headers);
    const answer = formAnswer(reply, json, notices, (id) => `../?queue=${id}#queue`);
    if (!source.deliverNow) {
      const notes = say.render(queueMessages.deliverNowUnavailable());
      return answer(404, { ok: false, title, notes }, { error: { code: 'COMMAND_INVALID', notes } });
    }
    const deliverNow = source.deliverNow.bind(source);
    try {
      const result = await actions.run(
        'deliver-now',
        actorOf(caller),
        { via: viaOf(caller) },
        async () => deliverNow(),
        (done) => ({
          pending: done.pending,
          lifted: done.lifted ? 'yes' : 'no',
          ...(done.rateLimitedUntil !== undefined
            ? { rateLimitedUntil: new Date(done.rateLimitedUntil).toISOString() }
            : {}),
        }),
      );
      const snapshot = source.snapshot();
      const notes = messageRenderer(deps.locale, snapshot.timezone).render(
        deliverNowWords(result, snapshot.now),
      );
      return answer(200, { ok: true, title, notes }, { ...result, notes });
    } catch (error) {
      if (error instanceof ActionLimited) return replyLimited(reply, error, json, say);
      log.error('deliver now failed unexpectedly', { error });
      const code = isAgentError(error) ? error.code : 'INTERNAL';
      const notes = say.render(isAgentError(error) ? error.notes : errorCodeNote('INTERNAL'));
      return answer(500, { ok: false, title, notes }, { error: { code, notes } });
    }
  });
  return notices;
}
