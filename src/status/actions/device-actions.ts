import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ActionField, JobResult } from '../../drivers-api/types.js';
import { errorCodeNote, isAgentError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { MessageRenderer } from '../../messages/render.js';
import type { StatusSource } from '../../status-model.js';
import type { Caller } from '../callers/index.js';
import { staffMessages, wantsJson } from '../callers/index.js';
import { pageMessages } from '../page/index.js';
import { formAnswer, NoticeBoard, refuseForeignForm, viaOf } from './form-answers.js';
import { ActionLimited, type AuditFacts, actorOf, type LocalActions, replyLimited } from './local-actions.js';

/**
 * Device actions (`Driver.actions`: a fiscal printer's X and Z reports, voiding a receipt) through
 * the running agent, which holds the devices, for a caller who proved who they are (callers.ts):
 *
 * - `GET /actions`: every device's actions (name, label, fields); a page session also gets its
 *   CSRF token there, nobody else does. The command line (`frontdesk-agent report`, `void`) reads
 *   it through the staff socket.
 * - `POST /actions/<device>/<action>`: runs one, with the fields as a form or a JSON object.
 *   From a page session: its Origin (or Referer) must name this host and it must carry the
 *   session's CSRF token (form field `csrf` or `X-CSRF-Token`). Through the staff socket or with
 *   `Authorization: Bearer <action token>` neither is asked: no browser can send those across
 *   sites. An action with `confirm` (a void, a Z report) needs `confirm=yes` from every caller:
 *   a script must say it means it, as a person ticks the box (issue 40, item 2).
 *
 * An unknown device or action is answered (404) before the caller's rate budget is touched; then
 * every attempt goes through `LocalActions`: rate-limited per caller (429, `Retry-After`, a
 * sentence) and audited (`audit=device-action`, who, device, action, the short id-like values of
 * the action's declared fields only, result). A script gets `{notes, details}` or
 * `{error: {code, notes}}`; a plain form submission is redirected back to the page, which shows
 * the outcome by an id it keeps (`?action=<id>`), never text from the address.
 */

export interface DeviceActionsDeps {
  source: StatusSource;
  log: Logger;
  actions: LocalActions;
  /** The request's caller, as the server's first hook identified it. */
  callerOf(request: FastifyRequest): Caller;
  /** Aborted when the server closes: actions in progress learn the agent is stopping. */
  signal: AbortSignal;
  /** The page's language: answers and notices are rendered in it. */
  say: MessageRenderer;
}

const SHORT = /^[\w.:/ -]{1,40}$/;

function statusFor(error: unknown): number {
  if (!isAgentError(error)) return 500;
  if (error.details.unknownAction) return 404;
  if (error.code === 'COMMAND_INVALID') return 400;
  if (error.code === 'INTERNAL') return 500;
  if (error.code === 'FISCAL_REJECTED') return 422;
  return 502;
}

/**
 * Parameters worth auditing: the action's declared fields (names the driver chose, never the
 * request's own keys), with short, id-like values only (never free text).
 */
function auditParams(params: Record<string, string>, fields: readonly ActionField[]): AuditFacts {
  const out: AuditFacts = {};
  for (const field of fields.slice(0, 5)) {
    const value = Object.hasOwn(params, field.name) ? params[field.name] : undefined;
    if (value !== undefined && /^[\w.-]{1,40}$/.test(field.name) && SHORT.test(value))
      out[`param.${field.name}`] = value;
  }
  return out;
}

function auditResult(result: JobResult): AuditFacts {
  const out: AuditFacts = {};
  for (const [key, value] of Object.entries(result.details ?? {}).slice(0, 8)) {
    if (typeof value === 'number' || (typeof value === 'string' && SHORT.test(value))) out[key] = value;
  }
  return out;
}

export function registerDeviceActions(app: FastifyInstance, deps: DeviceActionsDeps): NoticeBoard {
  const { source, log, actions, say } = deps;
  const notices = new NoticeBoard();
  app.get('/actions', async (request, reply) => {
    const caller = deps.callerOf(request);
    const devices = source
      .snapshot()
      .devices.filter((d) => d.actions && d.actions.length > 0)
      .map((d) => ({ id: d.id, name: d.name, type: d.type, actions: d.actions }));
    return reply
      .header('cache-control', 'no-store')
      .send({ ...(caller.kind === 'session' ? { csrfToken: caller.session.csrfToken } : {}), devices });
  });

  app.post('/actions/:deviceId/:action', async (request, reply) => {
    const { deviceId, action } = request.params as { deviceId: string; action: string };
    const caller = deps.callerOf(request);
    const refused = refuseForeignForm(request, reply, caller, 'device action', deps);
    if (refused) return refused;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const json = wantsJson(request.headers);
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries(body)) {
      if (key !== 'csrf' && key !== 'confirm' && typeof value === 'string') params[key] = value;
    }
    const device = source.snapshot().devices.find((d) => d.id === deviceId);
    const info = device?.actions?.find((a) => a.name === action);
    const label = info?.label ?? pageMessages.unknownAction({ name: action });
    const title = say.render(
      device ? pageMessages.actionOnDevice({ action: label, device: device.name }) : label,
    );
    const answer = formAnswer(reply, json, notices, (id) => `../../?action=${id}#device-actions`);
    if (!device || !info) {
      const notes = say.render(staffMessages.unknownAction());
      return answer(404, { ok: false, title, notes }, { error: { code: 'COMMAND_INVALID', notes } });
    }
    if (info.confirm && body.confirm !== 'yes' && body.confirm !== 'on') {
      const notes = say.render(pageMessages.confirmFirst({ confirm: info.confirm }));
      return answer(400, { ok: false, title, notes }, { error: { code: 'NOT_CONFIRMED', notes } });
    }
    if (!source.runDeviceAction) {
      return answer(
        404,
        { ok: false, title, notes: say.render(pageMessages.noDeviceActions()) },
        { error: { code: 'COMMAND_INVALID', notes: say.render(pageMessages.noDeviceActions()) } },
      );
    }
    const run = source.runDeviceAction.bind(source);
    try {
      const result = await actions.run(
        'device-action',
        actorOf(caller),
        {
          device: deviceId,
          action,
          via: viaOf(caller),
          ...auditParams(params, info.fields),
        },
        () => run(deviceId, action, params, deps.signal),
        auditResult,
      );
      const notes = say.render(result.notes);
      return answer(200, { ok: true, title, notes }, { ...result, notes });
    } catch (error) {
      if (error instanceof ActionLimited) return replyLimited(reply, error, json, say);
      const code = isAgentError(error) ? error.code : 'INTERNAL';
      const notes = say.render(isAgentError(error) ? error.notes : errorCodeNote('INTERNAL'));
      if (!isAgentError(error))
        log.error('device action failed unexpectedly', { device: deviceId, action, error });
      return answer(statusFor(error), { ok: false, title, notes }, { error: { code, notes } });
    }
  });

  return notices;
}
