/**
 * Supervision: how the agent keeps itself alive and says so. The systemd notification protocol
 * (`READY=1`, `STOPPING=1`) with its watchdog, the event-loop lag probe the watchdog, `/healthz`
 * and `/metrics` share, and the process-level guard that turns an error escaping every handler
 * into a logged fault and a health reason. It stands on the ground floor only (clock, log,
 * errors, the catalogue): the status page shows what it finds, it never needs the page.
 */

export {
  type EscapedFault,
  EscapedFaults,
  type EscapedFaultsOptions,
  type EscapeOrigin,
  type RestartableComponent,
  stackFiles,
} from './escaped-faults.js';
export {
  createLoopLag,
  eventLoopLagProbe,
  LAG_RESOLUTION_MS,
  type LagProbe,
  type LagTimer,
  type LoopLag,
  loopLag,
} from './loop-lag.js';
export {
  createNotifier,
  formatNotifyMessage,
  type Notifier,
  type NotifierOptions,
  type NotifyTransport,
} from './sd-notify.js';
export { startWatchdog, type Watchdog, type WatchdogOptions, watchdogInterval } from './watchdog.js';
