/**
 * The callers room's front: who sent a request and what they may do — page sessions and how a
 * browser gets one (`/login`, login codes, the session cookie), the action and metrics tokens,
 * the staff socket's peers, the brake on guessing, and how each refusal is answered — and the
 * sentences staff read about logging in.
 */

export { formRefusal, isLoopbackHostHeader, parseListen, wantsJson } from './access.js';
export { BASE_HEADERS, pageCsp, REFUSALS } from './answers.js';
export { FailedAttempts } from './attempts.js';
export { accessOf, type Caller, type CallerDeps, identify, type Verdict, verdict } from './callers.js';
export { localBaseUrl, registerLogin } from './login.js';
export { staffMessages } from './messages.js';
export { type ConnectionEnds, peerResolver } from './peer-uid.js';
export { sessionCookieName } from './session-cookie.js';
export { type CodeOwner, StaffSessions } from './staff-sessions.js';
