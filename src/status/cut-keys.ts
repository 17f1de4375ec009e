import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { StatusSource } from '../agent-api.js';
import { ERROR_CODES, type ErrorCode, isAgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { isSameOrigin, safeEqual } from './access.js';
import { MAX_KEY_COUNT } from './page.js';

/**
 * `POST /cut-keys`: the page's Cut keys form. Refused with 403 unless the request comes from
 * our own page: its Origin (or Referer) names this host, and it carries the per-process CSRF
 * token (form field `csrf` or header `X-CSRF-Token`). Then validates the device (a configured
 * KeyCutter), the reservation id and the count (1..10), and calls `source.cutKeys()` once.
 *
 * A script (`Accept: application/json`) gets `{commandId}` or `{error: {code, notes}}` with a
 * 4xx/5xx status; a plain form submission is redirected back to the page, which shows the
 * outcome (`?cut=<id>` or `?cutError=<code>`).
 */

const FormSchema = z.object({
  deviceId: z.string().trim().min(1).max(200),
  reservationId: z.string().trim().min(1).max(100),
  keyCount: z.coerce.number().int().min(1).max(MAX_KEY_COUNT),
});

/** Outcomes the page can explain after a plain form submission, beyond the agent's error codes. */
export const FORM_ERRORS = {
  FORM_INVALID: `Fill in a reservation id and a number of keys between 1 and ${MAX_KEY_COUNT}.`,
  DEVICE_UNKNOWN: 'Choose one of the key encoders in the list.',
} as const;

/** The sentence for a `cutError` code in the page's address; undefined for anything unknown. */
export function cutErrorText(code: string): string | undefined {
  if (Object.hasOwn(FORM_ERRORS, code)) return FORM_ERRORS[code as keyof typeof FORM_ERRORS];
  if (Object.hasOwn(ERROR_CODES, code)) return ERROR_CODES[code as ErrorCode].notes;
  return undefined;
}

function statusFor(code: string): number {
  if (code === 'FORM_INVALID' || code === 'DEVICE_UNKNOWN' || code === 'REQUEST_INVALID') return 400;
  if (code === 'PLATFORM_FORBIDDEN' || code === 'PLATFORM_REJECTED') return 422;
  if (code === 'INTERNAL') return 500;
  return 502;
}

export interface CutKeysDeps {
  source: StatusSource;
  log: Logger;
  csrfToken: string;
}

export function registerCutKeys(app: FastifyInstance, deps: CutKeysDeps): void {
  const { source, log, csrfToken } = deps;

  app.post('/cut-keys', async (request, reply) => {
    if (!isSameOrigin(request.headers)) {
      log.warn('cut keys refused: cross-site request', { origin: request.headers.origin ?? null });
      return reply
        .code(403)
        .send({ error: { code: 'CROSS_SITE', notes: 'Refused: not sent from this page.' } });
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    const headerToken = request.headers['x-csrf-token'];
    const presented =
      typeof body.csrf === 'string' ? body.csrf : typeof headerToken === 'string' ? headerToken : '';
    if (!presented || !safeEqual(presented, csrfToken)) {
      log.warn('cut keys refused: missing or wrong CSRF token');
      return reply.code(403).send({
        error: { code: 'CSRF', notes: 'Refused: the page is out of date; reload it and try again.' },
      });
    }

    const wantsJson =
      (request.headers.accept ?? '').includes('application/json') ||
      (request.headers['content-type'] ?? '').includes('application/json');
    const fail = (code: string, notes: string, detail?: string) =>
      wantsJson
        ? reply.code(statusFor(code)).send({ error: { code, notes, ...(detail ? { detail } : {}) } })
        : redirect(reply, `./?cutError=${encodeURIComponent(code)}`);

    const parsed = FormSchema.safeParse(body);
    if (!parsed.success) return fail('FORM_INVALID', FORM_ERRORS.FORM_INVALID);
    const { deviceId, reservationId, keyCount } = parsed.data;
    const device = source.snapshot().devices.find((d) => d.id === deviceId && d.type === 'KeyCutter');
    if (!device) return fail('DEVICE_UNKNOWN', FORM_ERRORS.DEVICE_UNKNOWN);

    try {
      const commandId = await source.cutKeys({ deviceId, reservationId, keyCount });
      log.info('cut keys requested from the status page', { deviceId, reservationId, keyCount, commandId });
      return wantsJson
        ? reply.code(201).send({ commandId })
        : redirect(reply, `./?cut=${encodeURIComponent(commandId)}`);
    } catch (error) {
      const code = isAgentError(error) ? error.code : 'INTERNAL';
      const notes = isAgentError(error) ? error.notes : ERROR_CODES.INTERNAL.notes;
      // The platform's text for a refused business rule is meant for humans.
      const detail =
        isAgentError(error) && (code === 'PLATFORM_FORBIDDEN' || code === 'PLATFORM_REJECTED')
          ? error.message
          : undefined;
      log.warn('cut keys failed', { deviceId, reservationId, keyCount, code });
      return fail(code, notes, detail);
    }
  });
}

function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).send();
}
