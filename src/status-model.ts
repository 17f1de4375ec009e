import type { BudgetSnapshot, RefusedItems, RequestRecord } from './connector/api.js';
import type { KeyCutterOrder } from './connector/enterprise.js';
import type { RateLimitState } from './connector/rate-budget.js';
import type { CommandState } from './connector/wire.js';
import type { ActionField, DeviceStatus, JobResult } from './drivers-api/types.js';
import type { SerializedError } from './errors.js';
import type { Message } from './messages/message.js';

/**
 * The status page's view model: what the running agent shows of itself. The status page,
 * `/status.json`, `/healthz` and `/metrics` are built from these types only, so they can be tested
 * with a fake source; the engine speaks them (its `AgentEvent`s, `CommandSummary`) so the page
 * needs nothing of the engine's insides. Plain types on a low floor: the engine, the page and the
 * command line all import them, and they import nothing above the driver contract.
 */

/** A command as the page shows it. */
export interface CommandSummary {
  id: string;
  deviceId: string;
  deviceName: string;
  /** 'fiscal' | 'keys' | 'print' | 'other' | 'invalid'. */
  kind: string;
  /** The state the agent last reported (or will report: see `pendingUpdates`). */
  state: CommandState;
  createdUtc?: string;
  /** Epoch ms the agent first saw it. */
  seenAt: number;
  finishedAt?: number;
  progress?: number;
  /** The Notes reported, as a catalogue message (`/status.json` carries it as `{id, values}`). */
  notes?: Message;
  error?: SerializedError;
  /** Receipt numbers, card counts … from the driver's result. */
  result?: Record<string, unknown>;
  timeline: Array<{ state: CommandState; at: number }>;
}

export interface DeviceSnapshot {
  id: string;
  name: string;
  type: 'FiscalMachine' | 'KeyCutter' | 'Printer';
  driver: string;
  status: DeviceStatus;
  /** Jobs waiting for this device, excluding the running one. */
  queued: number;
  running?: { commandId: string; progress: number; startedAt: number };
  /** What staff may do on the device besides the platform's commands (`Driver.actions`). */
  actions?: DeviceActionInfo[];
}

/** A device action as the page and the command line show it (without its code). */
export interface DeviceActionInfo {
  name: string;
  /** Words as the driver says them: catalogue messages. */
  label: Message;
  description: Message;
  fields: ActionField[];
  confirm?: Message;
}

export interface PlatformSnapshot {
  url: string;
  websocket: 'disabled' | 'connecting' | 'open' | 'down';
  /** `websocket` while the socket is open, `polling` otherwise. */
  mode: 'websocket' | 'polling';
  lastSuccessAt?: number;
  lastError?: { code: string; message: string; at: number };
  /** True after a 401: the tokens are refused. */
  authRejected: boolean;
  budget: BudgetSnapshot;
  /** Present from a 429 until the platform accepts a request again. */
  rateLimited?: RateLimitState;
  /** An intake round that has failed every time since `since` (see `PlatformActivity`). */
  intakeFailing?: { round: string; since: number; failures: number; code: string; message: string };
}

export interface AgentSnapshot {
  version: string;
  startedAt: number;
  now: number;
  timezone: string;
  platform: PlatformSnapshot;
  devices: DeviceSnapshot[];
  outbox: OutboxSnapshot;
  /** Newest first, bounded (about 100). */
  recent: CommandSummary[];
  /** One bucket a minute, oldest first, the last 60 minutes. */
  perMinute: Array<{ minute: number; processed: number; failed: number; pickupP50Ms?: number }>;
  totals: { processed: number; failed: number; cancelled: number; inFlight: number };
  /**
   * The configured `platform.enterpriseIds`, when there are any: the Cut keys form sends one as
   * `EnterpriseId` (required with portfolio tokens), offering a choice when there are several.
   */
  enterpriseIds?: string[];
}

/** Results and updates not yet delivered to the platform, and why they wait. */
export interface OutboxSnapshot {
  pending: number;
  /** Epoch ms the oldest waiting update was written. */
  oldestAt?: number;
  /**
   * Present while deliveries fail: since the first failure after the platform last took an
   * update, the last failure's code, whether the platform refuses the agent (`refused`: tokens
   * or address) or cannot be reached (`outage`), and the next try while delivery is paused.
   * A rate limit is not here: it is the platform's (`PlatformSnapshot.rateLimited`).
   */
  trouble?: { since: number; code: string; reason: 'outage' | 'refused'; until?: number };
}

/** What staff's "try delivery now" did (`StatusSource.deliverNow`). */
export interface DeliverNowResult {
  /** Updates waiting when it was asked. */
  pending: number;
  /** Whether a pause after failures was ended. */
  lifted: boolean;
  /** Epoch ms until which the platform's rate limit still holds the requests, if it does. */
  rateLimitedUntil?: number;
}

/** Everything that happens, for live updates (SSE) and metrics. */
export type AgentEvent =
  | {
      type: 'transition';
      at: number;
      commandId: string;
      deviceId: string;
      deviceType: string;
      kind: string;
      from?: CommandState;
      to: CommandState;
      /** Set on the first Received: created → received on the platform's clock vs ours. */
      pickupMs?: number;
      /** Set on terminal states: created → finished. */
      endToEndMs?: number;
      errorCode?: string;
    }
  | { type: 'progress'; at: number; commandId: string; deviceId: string; fraction: number }
  | { type: 'request'; at: number; record: RequestRecord }
  /** Items of a platform answer the agent refused: a page over its bound, malformed items. */
  | { type: 'refused'; at: number; refused: RefusedItems }
  | { type: 'device'; at: number; deviceId: string; status: DeviceStatus }
  | { type: 'platform'; at: number; websocket: PlatformSnapshot['websocket'] };

export interface Health {
  ok: boolean;
  /** Why not, in words IT understands (`/healthz` gives them in English); empty when ok. */
  reasons: Message[];
}

/** The running agent as the status server needs it. */
export interface StatusSource {
  snapshot(): AgentSnapshot;
  /** Subscribes to events; returns the unsubscribe function. */
  subscribe(listener: (event: AgentEvent) => void): () => void;
  health(): Health;
  /** Creates a key-cutter command on the platform (`commands/addKeyCutter`); resolves to its id. */
  cutKeys(request: CutKeysRequest): Promise<string>;
  /**
   * Runs a device action (`Driver.actions`) with the raw parameters of a form or a command line,
   * validated by the action's schema. Rejects with COMMAND_INVALID (`details.unknownAction` for a
   * device or action that does not exist, `details.invalidParams` for parameters the schema
   * refuses), or with the action's own error. Absent on sources without devices.
   */
  /**
   * Staff's "try delivery now": ends the outbox's pause after failures so the waiting updates go
   * at once (the platform's rate limit still holds). Absent on sources without an outbox.
   */
  deliverNow?(): DeliverNowResult;
  runDeviceAction?(
    deviceId: string,
    action: string,
    params: Record<string, string>,
    signal: AbortSignal,
  ): Promise<JobResult>;
}

/** Staff's order for key cards (`src/connector/enterprise.ts`). */
export type CutKeysRequest = KeyCutterOrder;
