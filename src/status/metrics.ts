import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AgentEvent, AgentSnapshot } from '../agent-api.js';
import { TERMINAL_STATES } from '../connector/wire.js';
import { numericFacts } from './device-facts.js';
import { type LoopLag, loopLag } from './loop-lag.js';

/**
 * Prometheus metrics of the agent, in their own `Registry` (never prom-client's global one, so
 * several agents or tests in one process do not collide). Counters and histograms are derived
 * from `AgentEvent`s (`handle`); gauges are set from a snapshot just before each scrape
 * (`collect`), so they always reflect the agent's current state.
 *
 * Labels: `device` is the platform's Device id (stable) and `device_name` its configured name
 * beside it (`frontdesk_device_info` also maps one to the other), `type` is the command kind
 * (fiscal, keys, print, other, invalid), `outcome` the terminal state in lower case (processed,
 * error, cancelled). With `site` configured, every sample (the process metrics too) also carries
 * `property` and `desk`, so one Prometheus can tell many desks apart (monitoring/README.md).
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
  /** Added as `property` and `desk` labels to every sample (config `site`). */
  site?: { property?: string | undefined; desk?: string | undefined } | undefined;
  /**
   * Device names by id, for the `device_name` label of events that arrive before the first
   * snapshot; each snapshot's names are learnt too.
   */
  deviceNames?: ReadonlyMap<string, string>;
  /** Where the event-loop lag comes from: the process's one probe unless a test gives its own. */
  loopLag?: LoopLag;
}

/** prom-client's own lag timer, parked: one tick in about 24 days. */
const PARKED_PRECISION_MS = 2 ** 31 - 1;

/**
 * prom-client's default metrics, with its event-loop lag served by the agent's one probe:
 * prom-client has no switch to leave its own probe out, so its timer is parked and its lag
 * families are replaced by two with the same names and meaning (lag at the scrape, and the worst
 * since the previous scrape).
 */
function registerDefaultMetrics(registry: Registry, lag: LoopLag): void {
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: PARKED_PRECISION_MS });
  for (const metric of registry.getMetricsAsArray()) {
    if (metric.name.startsWith('nodejs_eventloop_lag_')) registry.removeSingleMetric(metric.name);
  }
  const worst = lag.reader();
  new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds.',
    registers: [registry],
    collect() {
      this.set(lag.currentMs() / 1000);
    },
  });
  new Gauge({
    name: 'nodejs_eventloop_lag_max_seconds',
    help: 'The worst event loop delay since the previous scrape.',
    registers: [registry],
    collect() {
      this.set(worst.sampleMs() / 1000);
    },
  });
}

const PICKUP_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
const END_TO_END_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800];
const REQUEST_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30];
const BUDGET_WAIT_BUCKETS = [0, 0.1, 0.5, 1, 2, 5, 10, 30, 60];

export function createMetrics(options: MetricsOptions = {}): StatusMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) registerDefaultMetrics(registry, options.loopLag ?? loopLag());
  const site: Record<string, string> = {};
  if (options.site?.property) site.property = options.site.property;
  if (options.site?.desk) site.desk = options.site.desk;
  registry.setDefaultLabels(site);
  const registers = [registry];
  const names = new Map(options.deviceNames ?? []);
  const named = (device: string) => ({ device, device_name: names.get(device) ?? device });

  const commands = new Counter({
    name: 'frontdesk_commands_total',
    help: 'Commands that reached a terminal state, by device, command type and outcome.',
    labelNames: ['device', 'device_name', 'type', 'outcome'] as const,
    registers,
  });
  const commandErrors = new Counter({
    name: 'frontdesk_command_errors_total',
    help: 'Commands that ended in Error, by device and error code (PAPER_OUT, DEVICE_UNAVAILABLE …).',
    labelNames: ['device', 'device_name', 'code'] as const,
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
    labelNames: ['device', 'device_name'] as const,
    registers,
  });
  const deviceBusy = new Gauge({
    name: 'frontdesk_device_busy',
    help: '1 while the device runs a job.',
    labelNames: ['device', 'device_name'] as const,
    registers,
  });
  const deviceUp = new Gauge({
    name: 'frontdesk_device_up',
    help: '1 when the device answered its last contact, 0 otherwise.',
    labelNames: ['device', 'device_name'] as const,
    registers,
  });
  const deviceWarnings = new Gauge({
    name: 'frontdesk_device_warnings',
    help: 'Problems the device reports that staff should act on (the page lists them).',
    labelNames: ['device', 'device_name'] as const,
    registers,
  });
  const deviceFact = new Gauge({
    name: 'frontdesk_device_fact',
    help: 'A status fact the driver reports: numbers as they are, booleans as 1/0, dates as Unix seconds.',
    labelNames: ['device', 'device_name', 'fact'] as const,
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
  const lastSuccess = new Gauge({
    name: 'frontdesk_platform_last_success_timestamp_seconds',
    help: 'When the platform last answered a request with success (absent until it has).',
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
              commands.inc({ ...named(event.deviceId), type: event.kind, outcome: event.to.toLowerCase() });
              if (event.to === 'Error')
                commandErrors.inc({ ...named(event.deviceId), code: event.errorCode ?? 'UNKNOWN' });
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
            deviceUp.set(named(event.deviceId), event.status.connected ? 1 : 0);
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
        for (const g of [
          queueDepth,
          deviceBusy,
          deviceUp,
          deviceWarnings,
          deviceFact,
          deviceInfo,
          info,
          blockedUntil,
        ])
          g.reset();
        for (const d of snapshot.devices) {
          names.set(d.id, d.name);
          const labels = named(d.id);
          queueDepth.set(labels, d.queued);
          deviceBusy.set(labels, d.running ? 1 : 0);
          deviceUp.set(labels, d.status.connected ? 1 : 0);
          deviceWarnings.set(labels, d.status.warnings.length);
          for (const [fact, value] of numericFacts(d.status.facts))
            deviceFact.set({ ...labels, fact }, value);
          deviceInfo.set({ device: d.id, name: d.name, type: d.type, driver: d.driver }, 1);
        }
        outboxPending.set(snapshot.outbox.pending);
        outboxAge.set(
          snapshot.outbox.oldestAt === undefined ? 0 : seconds(snapshot.now - snapshot.outbox.oldestAt),
        );
        inFlight.set(snapshot.totals.inFlight);
        websocketUp.set(snapshot.platform.websocket === 'open' ? 1 : 0);
        authRejected.set(snapshot.platform.authRejected ? 1 : 0);
        if (snapshot.platform.lastSuccessAt !== undefined)
          lastSuccess.set(snapshot.platform.lastSuccessAt / 1000);
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
