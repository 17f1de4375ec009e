import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JobResult } from '../drivers-api/types.js';
import { errorCodeNote, isAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import type { MessageRenderer } from '../messages/render.js';
import type { StatusSource } from '../status-model.js';
import { formRefusal, presentedToken, safeEqual, wantsJson } from './access.js';
import { ActionLimited, type AuditFacts, actorOf, type LocalActions, replyLimited } from './local-actions.js';
import { pageMessages } from './messages.js';

/**
 * Device actions (`Driver.actions`: a fiscal printer's X and Z reports, voiding a receipt) through
 * the running agent, which holds the devices:
 *
 * - `GET /actions`: every device's actions (name, label, fields) and the page's CSRF token, for
 *   the command line (`frontdesk-agent report`, `void`), which follows the agent as `cut-keys`
 *   does. Readable only where the page is (loopback names, or the access token).
 * - `POST /actions/<device>/<action>`: runs one, with the fields as a form or a JSON object.
 *   From the page: its Origin (or Referer) must name this host and it must carry the CSRF token
 *   (form field `csrf` or `X-CSRF-Token`), and an action with `confirm` needs `confirm=yes`. With
 *   `Authorization: Bearer <access token>` (a script, the command line against a remote agent)
 *   neither is asked: a browser cannot send that header across sites.
 *
 * Every attempt goes through the page's `LocalActions` guard: rate-limited with the other page
 * actions (429, `Retry-After`, a sentence) and audited (`audit=device-action`, device, action,
 * the parameters' short id-like values, result). A script gets `{notes, details}` or
 * `{error: {code, notes}}`; a plain form submission is redirected back to the page, which shows
 * the outcome by an id it keeps (`?action=<id>`), never text from the address.
 */

export interface DeviceActionsDeps {
  source: StatusSource;
  log: Logger;
  csrfToken: string;
  actions: LocalActions;
  /** The page's access token, when it requires one. */
  accessToken?: string | undefined;
  /** Aborted when the server closes: actions in progress learn the agent is stopping. */
  signal: AbortSignal;
  /** The page's language: answers and notices are rendered in it. */
  say: MessageRenderer;
}

/** The outcome of a plain form submission, kept for the page that follows the redirect. */
export interface ActionNotice {
  ok: boolean;
  title: string;
  notes: string;
}

const KEPT = 20;
const SHORT = /^[\w.:/ -]{1,40}$/;

function statusFor(error: unknown): number {
  if (!isAgentError(error)) return 500;
  if (error.details.unknownAction) return 404;
  if (error.code === 'COMMAND_INVALID') return 400;
  if (error.code === 'INTERNAL') return 500;
  if (error.code === 'FISCAL_REJECTED') return 422;
  return 502;
}

/** Parameters worth auditing: short, id-like values only (never free text). */
function auditParams(params: Record<string, string>): AuditFacts {
  const out: AuditFacts = {};
  for (const [key, value] of Object.entries(params).slice(0, 5))
    if (SHORT.test(value)) out[`param.${key}`] = value;
  return out;
}

function auditResult(result: JobResult): AuditFacts {
  const out: AuditFacts = {};
  for (const [key, value] of Object.entries(result.details ?? {}).slice(0, 8)) {
    if (typeof value === 'number' || (typeof value === 'string' && SHORT.test(value))) out[key] = value;
  }
  return out;
}

export function registerDeviceActions(
  app: FastifyInstance,
  deps: DeviceActionsDeps,
): Map<string, ActionNotice> {
  const { source, log, csrfToken, actions, say } = deps;
  const notices = new Map<string, ActionNotice>();
  const keep = (notice: ActionNotice): string => {
    const id = randomBytes(9).toString('base64url');
    notices.set(id, notice);
    for (const old of notices.keys()) if (notices.size > KEPT) notices.delete(old);
    return id;
  };
  const bearer = (request: FastifyRequest) =>
    deps.accessToken !== undefined &&
    /^Bearer\s/i.test(request.headers.authorization ?? '') &&
    safeEqual(presentedToken(request.headers) ?? '', deps.accessToken);

  app.get('/actions', async (_request, reply) => {
    const devices = source
      .snapshot()
      .devices.filter((d) => d.actions && d.actions.length > 0)
      .map((d) => ({ id: d.id, name: d.name, type: d.type, actions: d.actions }));
    return reply.header('cache-control', 'no-store').send({ csrfToken, devices });
  });

  app.post('/actions/:deviceId/:action', async (request, reply) => {
    const { deviceId, action } = request.params as { deviceId: string; action: string };
    const api = bearer(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (!api) {
      const refused = formRefusal(request.headers, body, csrfToken);
      if (refused) {
        log.warn(`device action refused: ${refused.reason}`, refused.logFields);
        return reply.code(403).send({ error: { code: refused.code, notes: say.render(refused.notes) } });
      }
    }
    const json = wantsJson(request.headers);
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries(body)) {
      if (key !== 'csrf' && key !== 'confirm' && typeof value === 'string') params[key] = value;
    }
    const device = source.snapshot().devices.find((d) => d.id === deviceId);
    const info = device?.actions?.find((a) => a.name === action);
    const label = info?.label ?? action;
    const title = say.render(
      device ? pageMessages.actionOnDevice({ action: label, device: device.name }) : label,
    );
    const answer = (status: number, notice: ActionNotice, payload: object) =>
      json
        ? reply.code(status).send(payload)
        : reply
            .code(303)
            .header('location', `../../?action=${keep(notice)}#device-actions`)
            .send();
    if (info?.confirm && !api && body.confirm !== 'yes' && body.confirm !== 'on') {
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
        actorOf(request.ip, deps.accessToken !== undefined),
        { device: deviceId, action, via: api ? 'api' : 'page', ...auditParams(params) },
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

/** Redirects after a plain form submission; exported for tests of the page flow. */
export function noticeFor(notices: ReadonlyMap<string, ActionNotice>, id: unknown): ActionNotice | undefined {
  return typeof id === 'string' && /^[\w-]{1,20}$/.test(id) ? notices.get(id) : undefined;
}
