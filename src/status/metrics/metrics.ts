import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { TERMINAL_STATES } from '../../connector/wire.js';
import { numericFacts } from '../../drivers-api/facts.js';
import type { AgentEvent, AgentSnapshot } from '../../status-model.js';
import { type LoopLag, loopLag } from '../../supervision/index.js';

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

/** The labels of a per-device family. */
const DEVICE = ['device', 'device_name'] as const;
const PICKUP_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
const END_TO_END_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800];
const REQUEST_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30];
const BUDGET_WAIT_BUCKETS = [0, 0.1, 0.5, 1, 2, 5, 10, 30, 60];

/**
 * The gauges set from each snapshot: name, help and, for those with one value per device, the
 * `DEVICE` labels (without, one value for the whole agent).
 */
const SNAPSHOT_GAUGES: Readonly<Record<string, readonly [string, string, (readonly string[])?]>> = {
  queueDepth: ['frontdesk_queue_depth', 'Jobs waiting for a device, excluding the running one.', DEVICE],
  deviceBusy: ['frontdesk_device_busy', '1 while the device runs a job.', DEVICE],
  deviceUp: ['frontdesk_device_up', '1 when the device answered its last contact, 0 otherwise.', DEVICE],
  deviceWarnings: [
    'frontdesk_device_warnings',
    'Problems the device reports that staff should act on (the page lists them).',
    DEVICE,
  ],
  outboxPending: ['frontdesk_outbox_pending', 'Results waiting to be delivered to the platform.'],
  outboxAge: [
    'frontdesk_outbox_oldest_age_seconds',
    'Age of the oldest undelivered result; 0 when the outbox is empty.',
  ],
  outboxFailing: [
    'frontdesk_outbox_failing_seconds',
    'How long every delivery to the platform has failed (the page says since when and why); 0 while deliveries succeed.',
  ],
  inFlight: ['frontdesk_commands_in_flight', 'Commands accepted and not finished.'],
  websocketUp: [
    'frontdesk_platform_websocket_up',
    '1 while the platform WebSocket is open (0: the agent polls).',
  ],
  lastSuccess: [
    'frontdesk_platform_last_success_timestamp_seconds',
    'When the platform last answered a request with success (absent until it has).',
  ],
  authRejected: ['frontdesk_platform_auth_rejected', '1 after the platform refused the tokens (401).'],
  budgetUsed: ['frontdesk_platform_budget_used', 'Requests counted in the current rate window.'],
  budgetLimit: ['frontdesk_platform_budget_limit', 'Requests this agent may send per rate window.'],
  rateLimitedFor: [
    'frontdesk_platform_rate_limited_seconds',
    'How long the platform has answered 429 without accepting a request in between; 0 when not rate limited.',
  ],
  deviceFact: [
    'frontdesk_device_fact',
    'A status fact the driver reports: numbers as they are, booleans as 1/0, dates as Unix seconds.',
    ['device', 'device_name', 'fact'],
  ],
  deviceInfo: [
    'frontdesk_device_info',
    'Always 1; maps a device id to its name, type and driver.',
    ['device', 'name', 'type', 'driver'],
  ],
  blockedUntil: [
    'frontdesk_platform_blocked_until_seconds',
    'Unix time until which nothing is sent after a 429, then one probe request; reason: retry_after, retry_after_capped (asked longer than platform.rateLimit.maxRetryAfterSeconds), backoff (no Retry-After). 0 with reason none when not rate limited.',
    ['reason'],
  ],
  info: ['frontdesk_agent_info', 'Always 1; carries the agent version.', ['version']],
};

/** The counters fed by events: name, help, labels. */
const EVENT_COUNTERS: Readonly<Record<string, readonly [string, string, readonly string[]]>> = {
  commands: [
    'frontdesk_commands_total',
    'Commands that reached a terminal state, by device, command type and outcome.',
    ['device', 'device_name', 'type', 'outcome'],
  ],
  commandErrors: [
    'frontdesk_command_errors_total',
    'Commands that ended in Error, by device and error code (PAPER_OUT, DEVICE_UNAVAILABLE …).',
    ['device', 'device_name', 'code'],
  ],
  requests: [
    'frontdesk_platform_requests_total',
    'Connector API requests by operation and HTTP status (0: network failure or timeout).',
    ['operation', 'status'],
  ],
  rateLimited: [
    'frontdesk_platform_rate_limited_total',
    'Requests the platform answered with 429, by operation.',
    ['operation'],
  ],
  refusedItems: [
    'frontdesk_platform_refused_items_total',
    'Items of platform answers the agent refused: reason over_bound (a page longer than it asked for, refused unread) or malformed (an item that cannot be read).',
    ['operation', 'reason'],
  ],
};

/** The histograms fed by events: name, help, labels, buckets (in seconds). */
const EVENT_HISTOGRAMS: Readonly<Record<string, readonly [string, string, readonly string[], number[]]>> = {
  endToEnd: [
    'frontdesk_command_end_to_end_seconds',
    'From the command’s creation on the platform to its terminal state.',
    ['type'],
    END_TO_END_BUCKETS,
  ],
  pickup: [
    'frontdesk_command_pickup_seconds',
    'From the command’s creation on the platform to the agent receiving it.',
    ['type'],
    PICKUP_BUCKETS,
  ],
  requestDuration: [
    'frontdesk_platform_request_duration_seconds',
    'Duration of Connector API requests, by operation.',
    ['operation'],
    REQUEST_BUCKETS,
  ],
  budgetWait: [
    'frontdesk_platform_budget_wait_seconds',
    'Time each request waited for the client-side rate budget before being sent.',
    [],
    BUDGET_WAIT_BUCKETS,
  ],
};

/** One metric of each family in `table`, made by `make`, by the table's keys. */
function familiesOf<T extends readonly unknown[], M>(
  table: Readonly<Record<string, T>>,
  make: (entry: T) => M,
): (key: string) => M {
  const made = new Map(Object.entries(table).map(([key, entry]) => [key, make(entry)]));
  return (key) => made.get(key) as M;
}

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

  // Every family, from the tables above, lives in `registry`.
  const counted = familiesOf(
    EVENT_COUNTERS,
    ([name, help, labelNames]) => new Counter({ name, help, labelNames, registers }),
  );
  const observed = familiesOf(
    EVENT_HISTOGRAMS,
    ([name, help, labelNames, buckets]) => new Histogram({ name, help, labelNames, buckets, registers }),
  );
  const snap = familiesOf(
    SNAPSHOT_GAUGES,
    ([name, help, labelNames = []]) => new Gauge({ name, help, labelNames, registers }),
  );

  const seconds = (ms: number) => Math.max(0, ms) / 1000;

  return {
    registry,
    contentType: registry.contentType,
    handle(event) {
      try {
        switch (event.type) {
          case 'transition':
            if (TERMINAL_STATES.includes(event.to)) {
              counted('commands').inc({
                ...named(event.deviceId),
                type: event.kind,
                outcome: event.to.toLowerCase(),
              });
              if (event.to === 'Error')
                counted('commandErrors').inc({
                  ...named(event.deviceId),
                  code: event.errorCode ?? 'UNKNOWN',
                });
              if (event.endToEndMs !== undefined)
                observed('endToEnd').observe({ type: event.kind }, seconds(event.endToEndMs));
            }
            if (event.pickupMs !== undefined)
              observed('pickup').observe({ type: event.kind }, seconds(event.pickupMs));
            break;
          case 'request': {
            const r = event.record;
            counted('requests').inc({ operation: r.operation, status: String(r.status) });
            observed('requestDuration').observe({ operation: r.operation }, seconds(r.durationMs));
            observed('budgetWait').observe(seconds(r.budgetWaitMs));
            if (r.status === 429) counted('rateLimited').inc({ operation: r.operation });
            break;
          }
          case 'refused':
            counted('refusedItems').inc(
              { operation: event.refused.operation, reason: event.refused.reason.replace('-', '_') },
              event.refused.items,
            );
            break;
          case 'device':
            snap('deviceUp').set(named(event.deviceId), event.status.connected ? 1 : 0);
            break;
          case 'platform':
            snap('websocketUp').set(event.websocket === 'open' ? 1 : 0);
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
        for (const key of Object.keys(SNAPSHOT_GAUGES)) snap(key).reset();
        for (const d of snapshot.devices) {
          names.set(d.id, d.name);
          const labels = named(d.id);
          snap('queueDepth').set(labels, d.queued);
          snap('deviceBusy').set(labels, d.running ? 1 : 0);
          snap('deviceUp').set(labels, d.status.connected ? 1 : 0);
          snap('deviceWarnings').set(labels, d.status.warnings.length);
          for (const [fact, value] of numericFacts(d.status.facts))
            snap('deviceFact').set({ ...labels, fact }, value);
          snap('deviceInfo').set({ device: d.id, name: d.name, type: d.type, driver: d.driver }, 1);
        }
        snap('outboxPending').set(snapshot.outbox.pending);
        snap('outboxAge').set(
          snapshot.outbox.oldestAt === undefined ? 0 : seconds(snapshot.now - snapshot.outbox.oldestAt),
        );
        const trouble = snapshot.outbox.trouble;
        snap('outboxFailing').set(trouble ? seconds(snapshot.now - trouble.since) : 0);
        snap('inFlight').set(snapshot.totals.inFlight);
        snap('websocketUp').set(snapshot.platform.websocket === 'open' ? 1 : 0);
        snap('authRejected').set(snapshot.platform.authRejected ? 1 : 0);
        if (snapshot.platform.lastSuccessAt !== undefined)
          snap('lastSuccess').set(snapshot.platform.lastSuccessAt / 1000);
        snap('budgetUsed').set(snapshot.platform.budget.used);
        snap('budgetLimit').set(snapshot.platform.budget.limit);
        const limited = snapshot.platform.rateLimited;
        if (limited && limited.blockedUntil > snapshot.now) {
          snap('blockedUntil').set(
            { reason: limited.reason.replaceAll('-', '_') },
            limited.blockedUntil / 1000,
          );
        } else {
          snap('blockedUntil').set({ reason: 'none' }, 0);
        }
        snap('rateLimitedFor').set(limited ? seconds(snapshot.now - limited.since) : 0);
        snap('info').set({ version: snapshot.version }, 1);
      } catch {
        // as above
      }
    },
    text: () => registry.metrics(),
  };
}
