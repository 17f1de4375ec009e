import type { Clock } from '../clock.js';
import type { Engine, EngineDevice } from '../commands/index.js';
import { safeReason } from '../commands/index.js';
import type { ConnectorClient } from '../connector/client.js';
import type { CommandSocket } from '../connector/socket-api.js';
import { statusOrUnavailable } from '../drivers-api/status.js';
import type { DeviceAction } from '../drivers-api/types.js';
import { AgentError } from '../errors.js';
import type { Listeners } from '../listeners.js';
import type { Message } from '../messages/message.js';
import { describeRateLimit, pageMessages } from '../status/page/index.js';
import type {
  AgentEvent,
  AgentSnapshot,
  DeliverNowResult,
  DeviceActionInfo,
  Health,
  PlatformSnapshot,
  StatusSource,
} from '../status-model.js';
import { formatIssues } from '../zod-issues.js';

/**
 * The agent's events for the page and metrics: synchronous; a broken subscriber (a closed SSE
 * stream) never reaches the emitter.
 */
export type EventBus = Listeners<[AgentEvent]>;

/**
 * What the status source reads of the running agent: each field is one of the agent's parts
 * (`agent.ts`), seen through the little it needs of it.
 */
export interface StatusSourceParts {
  version: string;
  timezone: string;
  clock: Clock;
  /** When the agent started, its event loop's delay, the errors that escaped (`Supervision`). */
  supervision: { readonly startedAt: number; loopLagMs(): number; faultReasons(): Message[] };
  /** Where the platform answers (`PlatformLink`). */
  platform: { readonly url: string };
  /** The client, the WebSocket and the last 2xx answer the client saw (`PlatformConnection`). */
  connection: {
    readonly client: ConnectorClient;
    readonly socket: CommandSocket | undefined;
    readonly lastSuccessAt: number | undefined;
  };
  /** Whether the journal took the last heartbeat (`JournalFile`). */
  journal: { health(): { ok: boolean; error?: string } };
  engine: Engine;
  devices: readonly EngineDevice[];
  bus: EventBus;
  /** The platform counts as "answering" if it answered within this window. */
  platformSilenceMs: number;
  /** `platform.enterpriseIds` of the configuration. */
  enterpriseIds?: readonly string[];
}

function safeActions(device: EngineDevice): readonly DeviceAction[] {
  try {
    return device.driver.actions?.() ?? [];
  } catch {
    return [];
  }
}

/** A device action as the page and `/actions` show it: its words and fields, without its code. */
export function actionInfo(action: DeviceAction): DeviceActionInfo {
  const info: DeviceActionInfo = {
    name: action.name,
    label: action.label,
    description: action.description,
    fields: action.fields.map((f) => ({ ...f })),
  };
  if (action.confirm) info.confirm = action.confirm;
  return info;
}

/**
 * Runs a device's action with raw parameters (a form's fields, a command line's options),
 * validated by the action's schema first (see `StatusSource.runDeviceAction`).
 */
export async function runDeviceAction(
  devices: readonly EngineDevice[],
  deviceId: string,
  name: string,
  params: Record<string, string>,
  signal: AbortSignal,
) {
  const device = devices.find((d) => d.id === deviceId);
  const action = device ? safeActions(device).find((a) => a.name === name) : undefined;
  if (!device || !action) {
    throw new AgentError('COMMAND_INVALID', `Device ${deviceId} has no action ${name}`, {
      notes: pageMessages.noSuchAction(),
      details: { unknownAction: true },
    });
  }
  const parsed = action.params.safeParse(params);
  if (!parsed.success) {
    const issues = formatIssues(parsed.error, { separator: '; ', root: 'form' });
    throw new AgentError('COMMAND_INVALID', `Invalid parameters for ${name}: ${issues}`, {
      notes: checkTheForm(action, parsed.error.issues),
      details: { invalidParams: true },
    });
  }
  return action.run(parsed.data, signal);
}

/**
 * What staff read when an action's form does not pass its schema: the fields to correct, by their
 * labels, with the example each field shows; the schema's own text stays in the log's message.
 */
function checkTheForm(
  action: DeviceAction,
  issues: ReadonlyArray<{ path: readonly PropertyKey[] }>,
): Message {
  const named = new Set(issues.map((issue) => String(issue.path[0] ?? '')));
  const fields = action.fields
    .filter((field) => named.has(field.name))
    .map((field) =>
      field.placeholder
        ? pageMessages.fieldWithExample({ label: field.label, example: field.placeholder })
        : field.label,
    );
  return fields.length > 0
    ? pageMessages.checkFields({ fields: { list: fields } })
    : pageMessages.checkForm();
}

function websocketState(socket: CommandSocket | undefined): PlatformSnapshot['websocket'] {
  if (!socket) return 'disabled';
  switch (socket.state) {
    case 'open':
      return 'open';
    case 'connecting':
    case 'idle':
      return 'connecting';
    default:
      return 'down';
  }
}

/**
 * Rate limiting (429s with no accepted request in between) longer than this turns /healthz 503.
 * Not the watchdog: a restart does not lift a rate limit, it only costs the journal a recovery.
 */
export const RATE_LIMITED_UNHEALTHY_MS = 3 * 60_000;

/**
 * An intake round (the catch-up, the fiscal poll) failing every time for this long, at least
 * twice, turns /healthz 503: new commands are not taken in (a command the agent cannot store, a
 * platform answer it cannot read). Not the watchdog either: a restart reads the same answer.
 */
export const INTAKE_FAILING_UNHEALTHY_MS = 3 * 60_000;

/** The /healthz reason for a failing intake round, or undefined while it is not (yet) one. */
export function intakeReason(failing: PlatformSnapshot['intakeFailing'], now: number): Message | undefined {
  if (!failing || failing.failures < 2 || now - failing.since < INTAKE_FAILING_UNHEALTHY_MS) return undefined;
  const detail = safeReason(failing.message);
  const values = {
    round: failing.round,
    duration: { ms: now - failing.since },
    failures: failing.failures,
    code: failing.code,
  };
  return detail
    ? pageMessages.healthIntakeFailingBecause({ ...values, detail })
    : pageMessages.healthIntakeFailing(values);
}

/** The running agent as the status server sees it. */
export function createStatusSource(parts: StatusSourceParts): StatusSource {
  const platform = (): PlatformSnapshot => {
    const activity = parts.engine.platformActivity();
    const last = Math.max(activity.lastSuccessAt ?? 0, parts.connection.lastSuccessAt ?? 0);
    const ws = websocketState(parts.connection.socket);
    const snapshot: PlatformSnapshot = {
      url: parts.platform.url,
      websocket: ws,
      mode: ws === 'open' ? 'websocket' : 'polling',
      authRejected: activity.authRejected,
      budget: parts.connection.client.budget.snapshot(),
    };
    if (last > 0) snapshot.lastSuccessAt = last;
    if (activity.lastError) snapshot.lastError = activity.lastError;
    if (activity.intakeFailing) snapshot.intakeFailing = activity.intakeFailing;
    const limited = parts.connection.client.budget.rateLimitState();
    if (limited) snapshot.rateLimited = limited;
    return snapshot;
  };

  return {
    snapshot(): AgentSnapshot {
      return {
        version: parts.version,
        startedAt: parts.supervision.startedAt,
        now: parts.clock.now(),
        timezone: parts.timezone,
        platform: platform(),
        devices: parts.devices.map((device) => {
          const queue = parts.engine.deviceState(device.id);
          return {
            id: device.id,
            name: device.name,
            type: device.type,
            driver: device.driverKind,
            status: statusOrUnavailable(() => device.driver.status()),
            queued: queue.queued,
            ...(queue.running ? { running: queue.running } : {}),
            ...actionsOf(device),
          };
        }),
        outbox: parts.engine.outboxState(),
        recent: parts.engine.recent(100),
        perMinute: parts.engine.perMinute(),
        totals: parts.engine.totals(),
        ...(parts.enterpriseIds?.length ? { enterpriseIds: [...parts.enterpriseIds] } : {}),
      };
    },
    subscribe: (listener) => parts.bus.add(listener),
    health(): Health {
      const reasons: Message[] = [];
      const journal = parts.journal.health();
      if (!journal.ok)
        reasons.push(
          journal.error
            ? pageMessages.healthJournalBecause({ error: journal.error })
            : pageMessages.healthJournal(),
        );
      const p = platform();
      const now = parts.clock.now();
      if (p.authRejected) reasons.push(pageMessages.healthTokens());
      const silentFor = now - (p.lastSuccessAt ?? parts.supervision.startedAt);
      if (silentFor > parts.platformSilenceMs) {
        reasons.push(pageMessages.healthSilent({ seconds: Math.round(silentFor / 1000) }));
      }
      const limitedFor = p.rateLimited ? now - p.rateLimited.since : 0;
      if (p.rateLimited && limitedFor > RATE_LIMITED_UNHEALTHY_MS) {
        const limited = { duration: { ms: limitedFor }, how: describeRateLimit(p.rateLimited) };
        reasons.push(
          p.rateLimited.reason === 'retry-after-capped'
            ? pageMessages.healthRateLimitedCapped(limited)
            : pageMessages.healthRateLimited(limited),
        );
      }
      const intake = intakeReason(p.intakeFailing, now);
      if (intake) reasons.push(intake);
      const lag = parts.supervision.loopLagMs();
      if (lag > 2000) reasons.push(pageMessages.healthStalled({ ms: Math.round(lag) }));
      reasons.push(...parts.supervision.faultReasons());
      return { ok: reasons.length === 0, reasons };
    },
    cutKeys: (request) => parts.engine.cutKeys(request),
    deliverNow: () => {
      const done: DeliverNowResult = parts.engine.deliverNow();
      const blocked = parts.connection.client.budget.snapshot().blockedUntil;
      if (blocked !== undefined && blocked > parts.clock.now()) done.rateLimitedUntil = blocked;
      return done;
    },
    runDeviceAction: (deviceId, action, params, signal) =>
      runDeviceAction(parts.devices, deviceId, action, params, signal),
  };
}

function actionsOf(device: EngineDevice): { actions?: DeviceActionInfo[] } {
  const actions = safeActions(device);
  return actions.length > 0 ? { actions: actions.map(actionInfo) } : {};
}
