import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AgentEvent, AgentSnapshot } from '../agent-api.js';
import { TERMINAL_STATES } from '../connector/wire.js';

/**
 * Prometheus metrics of the agent, in their own `Registry` (never prom-client's global one, so
 * several agents or tests in one process do not collide). Counters and histograms are derived
 * from `AgentEvent`s (`handle`); gauges are set from a snapshot just before each scrape
 * (`collect`), so they always reflect the agent's current state.
 *
 * Labels: `device` is the platform's Device id (stable; `frontdesk_device_info` maps it to a
 * name), `type` is the command kind (fiscal, keys, print, other, invalid), `outcome` the terminal
 * state in lower case (processed, error, cancelled).
 */
export interface StatusMetrics {
  readonly registry: Registry;
  /** Feeds one event; never throws. */
  handle(event: AgentEvent): void;
  /** Sets the gauges from `snapshot`; never throws. */
  collect(snapshot: AgentSnapshot): void;
  /** The exposition text (`registry.metrics()`); call `collect` first. */
  text(): Promise<string>;
  readonly contentType: string;
}

export interface MetricsOptions {
  /** Include prom-client's default process metrics (CPU, memory, event loop lag …). Default true. */
  defaultMetrics?: boolean;
}

const PICKUP_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
const END_TO_END_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800];
const REQUEST_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30];
const BUDGET_WAIT_BUCKETS = [0, 0.1, 0.5, 1, 2, 5, 10, 30, 60];

export function createMetrics(options: MetricsOptions = {}): StatusMetrics {
  const registry = new Registry();
  // The event-loop lag histogram samples with a timer; prom-client's default (every 10 ms) was
  // most of an idle agent's CPU. Every 100 ms still catches any stall worth alerting on.
  if (options.defaultMetrics ?? true)
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  const registers = [registry];

  const commands = new Counter({
    name: 'frontdesk_commands_total',
    help: 'Commands that reached a terminal state, by device, command type and outcome.',
    labelNames: ['device', 'type', 'outcome'] as const,
    registers,
  });
  const endToEnd = new Histogram({
    name: 'frontdesk_command_end_to_end_seconds',
    help: 'From the command’s creation on the platform to its terminal state.',
    labelNames: ['type'] as const,
    buckets: END_TO_END_BUCKETS,
    registers,
  });
  const pickup = new Histogram({
    name: 'frontdesk_command_pickup_seconds',
    help: 'From the command’s creation on the platform to the agent receiving it.',
    labelNames: ['type'] as const,
    buckets: PICKUP_BUCKETS,
    registers,
  });
  const requests = new Counter({
    name: 'frontdesk_platform_requests_total',
    help: 'Connector API requests by operation and HTTP status (0: network failure or timeout).',
    labelNames: ['operation', 'status'] as const,
    registers,
  });
  const requestDuration = new Histogram({
    name: 'frontdesk_platform_request_duration_seconds',
    help: 'Duration of Connector API requests, by operation.',
    labelNames: ['operation'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const rateLimited = new Counter({
    name: 'frontdesk_platform_rate_limited_total',
    help: 'Requests the platform answered with 429, by operation.',
    labelNames: ['operation'] as const,
    registers,
  });
  const budgetWait = new Histogram({
    name: 'frontdesk_platform_budget_wait_seconds',
    help: 'Time each request waited for the client-side rate budget before being sent.',
    buckets: BUDGET_WAIT_BUCKETS,
    registers,
  });
  const queueDepth = new Gauge({
    name: 'frontdesk_queue_depth',
    help: 'Jobs waiting for a device, excluding the running one.',
    labelNames: ['device'] as const,
    registers,
  });
  const deviceBusy = new Gauge({
    name: 'frontdesk_device_busy',
    help: '1 while the device runs a job.',
    labelNames: ['device'] as const,
    registers,
  });
  const deviceUp = new Gauge({
    name: 'frontdesk_device_up',
    help: '1 when the device answered its last contact, 0 otherwise.',
    labelNames: ['device'] as const,
    registers,
  });
  const deviceInfo = new Gauge({
    name: 'frontdesk_device_info',
    help: 'Always 1; maps a device id to its name, type and driver.',
    labelNames: ['device', 'name', 'type', 'driver'] as const,
    registers,
  });
  const outboxPending = new Gauge({
    name: 'frontdesk_outbox_pending',
    help: 'Results waiting to be delivered to the platform.',
    registers,
  });
  const outboxAge = new Gauge({
    name: 'frontdesk_outbox_oldest_age_seconds',
    help: 'Age of the oldest undelivered result; 0 when the outbox is empty.',
    registers,
  });
  const inFlight = new Gauge({
    name: 'frontdesk_commands_in_flight',
    help: 'Commands accepted and not finished.',
    registers,
  });
  const websocketUp = new Gauge({
    name: 'frontdesk_platform_websocket_up',
    help: '1 while the platform WebSocket is open (0: the agent polls).',
    registers,
  });
  const authRejected = new Gauge({
    name: 'frontdesk_platform_auth_rejected',
    help: '1 after the platform refused the tokens (401).',
    registers,
  });
  const budgetUsed = new Gauge({
    name: 'frontdesk_platform_budget_used',
    help: 'Requests counted in the current rate window.',
    registers,
  });
  const budgetLimit = new Gauge({
    name: 'frontdesk_platform_budget_limit',
    help: 'Requests this agent may send per rate window.',
    registers,
  });
  const blockedUntil = new Gauge({
    name: 'frontdesk_platform_blocked_until_seconds',
    help: 'Unix time until which nothing is sent after a 429, then one probe request; reason: retry_after, retry_after_capped (asked longer than platform.rateLimit.maxRetryAfterSeconds), backoff (no Retry-After). 0 with reason none when not rate limited.',
    labelNames: ['reason'] as const,
    registers,
  });
  const rateLimitedFor = new Gauge({
    name: 'frontdesk_platform_rate_limited_seconds',
    help: 'How long the platform has answered 429 without accepting a request in between; 0 when not rate limited.',
    registers,
  });
  const info = new Gauge({
    name: 'frontdesk_agent_info',
    help: 'Always 1; carries the agent version.',
    labelNames: ['version'] as const,
    registers,
  });

  const seconds = (ms: number) => Math.max(0, ms) / 1000;

  return {
    registry,
    contentType: registry.contentType,
    handle(event) {
      try {
        switch (event.type) {
          case 'transition':
            if (TERMINAL_STATES.includes(event.to)) {
              commands.inc({ device: event.deviceId, type: event.kind, outcome: event.to.toLowerCase() });
              if (event.endToEndMs !== undefined)
                endToEnd.observe({ type: event.kind }, seconds(event.endToEndMs));
            }
            if (event.pickupMs !== undefined) pickup.observe({ type: event.kind }, seconds(event.pickupMs));
            break;
          case 'request': {
            const r = event.record;
            requests.inc({ operation: r.operation, status: String(r.status) });
            requestDuration.observe({ operation: r.operation }, seconds(r.durationMs));
            budgetWait.observe(seconds(r.budgetWaitMs));
            if (r.status === 429) rateLimited.inc({ operation: r.operation });
            break;
          }
          case 'device':
            deviceUp.set({ device: event.deviceId }, event.status.connected ? 1 : 0);
            break;
          case 'platform':
            websocketUp.set(event.websocket === 'open' ? 1 : 0);
            break;
          case 'progress':
            break;
        }
      } catch {
        // Metrics must never take the agent down.
      }
    },
    collect(snapshot) {
      try {
        for (const g of [queueDepth, deviceBusy, deviceUp, deviceInfo, info, blockedUntil]) g.reset();
        for (const d of snapshot.devices) {
          queueDepth.set({ device: d.id }, d.queued);
          deviceBusy.set({ device: d.id }, d.running ? 1 : 0);
          deviceUp.set({ device: d.id }, d.status.connected ? 1 : 0);
          deviceInfo.set({ device: d.id, name: d.name, type: d.type, driver: d.driver }, 1);
        }
        outboxPending.set(snapshot.outbox.pending);
        outboxAge.set(
          snapshot.outbox.oldestAt === undefined ? 0 : seconds(snapshot.now - snapshot.outbox.oldestAt),
        );
        inFlight.set(snapshot.totals.inFlight);
        websocketUp.set(snapshot.platform.websocket === 'open' ? 1 : 0);
        authRejected.set(snapshot.platform.authRejected ? 1 : 0);
        budgetUsed.set(snapshot.platform.budget.used);
        budgetLimit.set(snapshot.platform.budget.limit);
        const limited = snapshot.platform.rateLimited;
        if (limited && limited.blockedUntil > snapshot.now) {
          blockedUntil.set({ reason: limited.reason.replaceAll('-', '_') }, limited.blockedUntil / 1000);
        } else {
          blockedUntil.set({ reason: 'none' }, 0);
        }
        rateLimitedFor.set(limited ? seconds(snapshot.now - limited.since) : 0);
        info.set({ version: snapshot.version }, 1);
      } catch {
        // as above
      }
    },
    text: () => registry.metrics(),
  };
}
