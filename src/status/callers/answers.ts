import type { Message } from '../../messages/message.js';
import type { Verdict } from './callers.js';
import { staffMessages } from './messages.js';

/**
 * What the status server answers before a route does: the headers every answer carries, the
 * page's content security policy, and how each refusal of a caller is answered (callers.ts
 * decides which one).
 */

/** How each refusal is answered: status, code, and the sentence (the staff group's name in it). */
export const REFUSALS: Record<
  Exclude<Verdict, 'ok'>,
  { status: number; code: string; notes: (group: string) => Message }
> = {
  'not-staff': { status: 403, code: 'NOT_STAFF', notes: (group) => staffMessages.notStaff({ group }) },
  'socket-only': { status: 403, code: 'SOCKET_ONLY', notes: () => staffMessages.socketOnly() },
  'metrics-only': { status: 403, code: 'METRICS_ONLY', notes: () => staffMessages.metricsOnly() },
  'token-in-clear': { status: 403, code: 'TLS_REQUIRED', notes: () => staffMessages.tokenNeedsTls() },
  'wrong-token': { status: 401, code: 'WRONG_TOKEN', notes: () => staffMessages.wrongToken() },
  'login-first': { status: 401, code: 'LOGIN_REQUIRED', notes: () => staffMessages.loginFirst() },
  'too-many-attempts': {
    status: 429,
    code: 'TOO_MANY_ATTEMPTS',
    notes: () => staffMessages.tooManyAttempts({ seconds: 60 }),
  },
};

export const BASE_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

/** The page's policy: only our own inline style and script (by nonce), only our own origin. */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
