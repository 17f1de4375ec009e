/**
 * The metrics room's front: `/metrics` for Prometheus — counters from the agent's events, gauges
 * from a snapshot at each scrape, in a registry of the agent's own.
 */

export { createMetrics, type MetricsOptions, type StatusMetrics } from './metrics.js';
