/**
 * Operating the agent: the local status page (with live updates and the Cut keys form),
 * `/status.json`, `/healthz` and `/metrics` (the systemd protocol and the watchdog are in
 * `src/supervision/`). Everything here sees the running agent only as a `StatusSource` (`src/status-model.ts`).
 */

export { createMetrics, type MetricsOptions, type StatusMetrics } from './metrics/index.js';
export { buildStatusServer, type StatusServerOptions } from './server.js';
export { type RunningStatusServer, type StartStatusServerOptions, startStatusServer } from './start.js';
