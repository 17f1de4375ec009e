import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorCodeNote, isAgentError, isErrorCode } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Message } from '../../messages/message.js';
import type { MessageRenderer } from '../../messages/render.js';
import type { StatusSource } from '../../status-model.js';
import type { Caller } from '../callers/index.js';
import { wantsJson } from '../callers/index.js';
import { pageMessages } from '../page/index.js';
import { refuseForeignForm } from './form-answers.js';
import { ActionLimited, actorOf, type LocalActions, replyLimited } from './local-actions.js';

/**
 * `POST /cut-keys`: the page's Cut keys form, for a caller who proved who they are (callers.ts).
 * From a page session it is refused with 403 unless the request comes from our own page: its
 * Origin (or Referer) names this host, and it carries the session's CSRF token (form field `csrf`
 * or header `X-CSRF-Token`); the status token and the staff socket need neither, no browser can
 * send them across sites. Then validates the device (a configured
 * KeyCutter), the reservation id, the count (1..`status.actions.maxKeyCount`) and the enterprise
 * (one of the configured `platform.enterpriseIds`: the only one, or the one chosen), and calls
 * `source.cutKeys()` once through the page's `LocalActions` guard: rate-limited (beyond
 * `status.actions.perMinute` a 429 with `Retry-After` and a sentence) and audited.
 *
 * A script (`Accept: application/json`) gets `{commandId}` or `{error: {code, notes}}` with a
 * 4xx/5xx status; a plain form submission is redirected back to the page, which shows the
 * outcome (`?cut=<id>` or `?cutError=<code>`).
 */

function formSchema(maxKeyCount: number) {
  return z.object({
    deviceId: z.string().trim().min(1).max(200),
    reservationId: z.string().trim().min(1).max(100),
    keyCount: z.coerce.number().int().min(1).max(maxKeyCount),
    enterpriseId: z.string().trim().max(100).optional(),
  });
}

/** Outcomes the page can explain after a plain form submission, beyond the agent's error codes. */
export function formErrors(maxKeyCount: number) {
  return {
    FORM_INVALID: pageMessages.formInvalid({ max: maxKeyCount }),
    DEVICE_UNKNOWN: pageMessages.formDeviceUnknown(),
    ENTERPRISE_UNKNOWN: pageMessages.formEnterpriseUnknown(),
  } as const;
}

/** The sentence for a `cutError` code in the page's address; undefined for anything unknown. */
export function cutErrorText(code: string, maxKeyCount: number, say: MessageRenderer): string | undefined {
  const form = formErrors(maxKeyCount);
  if (Object.hasOwn(form, code)) return say.render(form[code as keyof typeof form]);
  if (isErrorCode(code)) return say.render(errorCodeNote(code));
  return undefined;
}

function statusFor(code: string): number {
  if (
    code === 'FORM_INVALID' ||
    code === 'DEVICE_UNKNOWN' ||
    code === 'ENTERPRISE_UNKNOWN' ||
    code === 'REQUEST_INVALID'
  )
    return 400;
  if (code === 'PLATFORM_FORBIDDEN' || code === 'PLATFORM_REJECTED') return 422;
  if (code === 'INTERNAL') return 500;
  return 502;
}

export interface CutKeysDeps {
  source: StatusSource;
  log: Logger;
  actions: LocalActions;
  /** The request's caller, as the server's first hook identified it. */
  callerOf(request: FastifyRequest): Caller;
  /** The page's language, for the sentences a refusal carries. */
  say: MessageRenderer;
}

export function registerCutKeys(app: FastifyInstance, deps: CutKeysDeps): void {
  const { source, actions, say } = deps;
  const FormSchema = formSchema(actions.limits.maxKeyCount);
  const FORM_ERRORS = formErrors(actions.limits.maxKeyCount);

  app.post('/cut-keys', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const caller = deps.callerOf(request);
    const refused = refuseForeignForm(request, reply, caller, 'cut keys', deps);
    if (refused) return refused;

    const json = wantsJson(request.headers);
    const fail = (code: string, notes: Message, detail?: string) =>
      json
        ? reply
            .code(statusFor(code))
            .send({ error: { code, notes: say.render(notes), ...(detail ? { detail } : {}) } })
        : redirect(reply, `./?cutError=${encodeURIComponent(code)}`);

    const parsed = FormSchema.safeParse(body);
    if (!parsed.success) return fail('FORM_INVALID', FORM_ERRORS.FORM_INVALID);
    const { deviceId, reservationId, keyCount } = parsed.data;
    const snapshot = source.snapshot();
    const device = snapshot.devices.find((d) => d.id === deviceId && d.type === 'KeyCutter');
    if (!device) return fail('DEVICE_UNKNOWN', FORM_ERRORS.DEVICE_UNKNOWN);
    // `EnterpriseId` goes with the request as the CLI sends it (required with portfolio tokens):
    // one of the configured enterprises, chosen in the form when there are several.
    const enterprises = snapshot.enterpriseIds ?? [];
    const enterpriseId = parsed.data.enterpriseId || (enterprises.length === 1 ? enterprises[0] : undefined);
    if (enterprises.length > 0 && (enterpriseId === undefined || !enterprises.includes(enterpriseId)))
      return fail('ENTERPRISE_UNKNOWN', FORM_ERRORS.ENTERPRISE_UNKNOWN);

    try {
      const commandId = await actions.run(
        'cut-keys',
        actorOf(caller),
        {
          device: deviceId,
          reservation: reservationId,
          count: keyCount,
          ...(enterpriseId ? { enterprise: enterpriseId } : {}),
        },
        () =>
          source.cutKeys({ deviceId, reservationId, keyCount, ...(enterpriseId ? { enterpriseId } : {}) }),
        (id) => ({ commandId: id }),
      );
      return json
        ? reply.code(201).send({ commandId })
        : redirect(reply, `./?cut=${encodeURIComponent(commandId)}`);
    } catch (error) {
      if (error instanceof ActionLimited) return replyLimited(reply, error, json, say);
      const code = isAgentError(error) ? error.code : 'INTERNAL';
      const notes = isAgentError(error) ? error.notes : errorCodeNote('INTERNAL');
      // The platform's text for a refused business rule is meant for humans.
      const detail =
        isAgentError(error) && (code === 'PLATFORM_FORBIDDEN' || code === 'PLATFORM_REJECTED')
          ? error.message
          : undefined;
      return fail(code, notes, detail);
    }
  });
}

function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).send();
}
