/**
 * The actions room's front: what staff do through the agent — cut keys, a device's actions (X
 * and Z reports, a void), "try delivery now" — each for a caller who proved who they are,
 * bounded, rate-limited per caller and audited (`LocalActions`, `auditLine`, which the command
 * line writes too).
 */

export { cutErrorText, registerCutKeys } from './cut-keys.js';
export { registerDeliverNow } from './deliver-now.js';
export { registerDeviceActions } from './device-actions.js';
export type { NoticeBoard } from './form-answers.js';
export { auditLine, type LocalActionLimits, LocalActions } from './local-actions.js';
