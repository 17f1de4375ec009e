/**
 * Operating the agent: the local status page (with live updates and the Cut keys form),
 * `/status.json`, `/healthz`, `/metrics`, and the systemd notification protocol with its watchdog.
 * Everything here sees the running agent only as a `StatusSource` (`src/status-model.ts`).
 */

export { eventLoopLagProbe, LAG_RESOLUTION_MS, type LagProbe, type LoopLag, loopLag } from './loop-lag.js';
export { createMetrics, type MetricsOptions, type StatusMetrics } from './metrics.js';
export { renderPage, renderSections, SECTION_IDS, type SectionId } from './page.js';
export { type AttentionItem, attentionItems } from './render-overview.js';
export {
  createNotifier,
  formatNotifyMessage,
  type Notifier,
  type NotifierOptions,
  type NotifyTransport,
} from './sd-notify.js';
export {
  buildStatusServer,
  type RunningStatusServer,
  type StartStatusServerOptions,
  type StatusServerOptions,
  startStatusServer,
} from './server.js';
export {
  startWatchdog,
  type Watchdog,
  type WatchdogOptions,
  watchdogInterval,
} from './watchdog.js';
