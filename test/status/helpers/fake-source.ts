import type { AgentError } from '../../../src/errors.js';
import { errorCodeNote } from '../../../src/errors.js';
import { textMessage } from '../../../src/messages/message.js';
import type {
  AgentEvent,
  AgentSnapshot,
  CommandSummary,
  CutKeysRequest,
  DeliverNowResult,
  DeviceSnapshot,
  Health,
  StatusSource,
} from '../../../src/status-model.js';

/** Markup that must never reach a page unescaped. */
export const XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

export const NOW = Date.UTC(2026, 2, 3, 13, 0, 0);

export const FISCAL_ID = 'd7f0a1e2-0000-4000-8000-000000000001';
export const ENCODER_ID = 'd7f0a1e2-0000-4000-8000-000000000002';
export const PRINTER_ID = 'd7f0a1e2-0000-4000-8000-000000000003';

function device(
  partial: Partial<DeviceSnapshot> & Pick<DeviceSnapshot, 'id' | 'name' | 'type'>,
): DeviceSnapshot {
  return {
    driver: 'sim',
    queued: 0,
    status: { connected: true, summary: textMessage('ready'), warnings: [], facts: {} },
    ...partial,
  };
}

function command(partial: Partial<CommandSummary> & Pick<CommandSummary, 'id'>): CommandSummary {
  return {
    deviceId: FISCAL_ID,
    deviceName: 'Fiscal printer',
    kind: 'fiscal',
    state: 'Processed',
    seenAt: NOW - 120_000,
    timeline: [],
    ...partial,
  };
}

/** A snapshot with one device of each type, one of them unplugged, and a few commands. */
export function sampleSnapshot(now = NOW): AgentSnapshot {
  return {
    version: '1.2.3',
    startedAt: now - 3 * 3600_000,
    now,
    timezone: 'Europe/Rome',
    platform: {
      url: 'https://api.mews-demo.com',
      websocket: 'open',
      mode: 'websocket',
      lastSuccessAt: now - 2000,
      authRejected: false,
      budget: { used: 37, limit: 200, windowMs: 30_000, waiting: 0 },
    },
    devices: [
      device({
        id: FISCAL_ID,
        name: 'Fiscal printer',
        type: 'FiscalMachine',
        driver: 'epson-fpmate',
        queued: 2,
        running: { commandId: 'cmd-running', progress: 0.4, startedAt: now - 3000 },
        status: {
          connected: true,
          summary: textMessage('ready'),
          lastContact: now - 1000,
          warnings: [textMessage('Paper low: replace the roll soon')],
          facts: { serial: '99MEX012345', rtFileToSend: 3, paper: 'low', rtDailyOpen: true, cover: 'closed' },
        },
      }),
      device({
        id: ENCODER_ID,
        name: 'Key encoder',
        type: 'KeyCutter',
        driver: 'salto-encoder',
        status: {
          connected: true,
          summary: textMessage('ready'),
          lastContact: now - 4000,
          warnings: [],
          facts: {},
        },
      }),
      device({
        id: PRINTER_ID,
        name: `Back office ${XSS}`,
        type: 'Printer',
        status: { connected: false, summary: textMessage(`unplugged ${XSS}`), warnings: [], facts: {} },
      }),
    ],
    outbox: { pending: 1, oldestAt: now - 5000 },
    recent: [
      command({
        id: 'cmd-failed',
        deviceName: 'Key encoder',
        deviceId: ENCODER_ID,
        kind: 'keys',
        state: 'Error',
        finishedAt: now - 30_000,
        notes: textMessage(`No card in the encoder ${XSS}`),
        error: {
          code: 'NO_CARD',
          message: 'encoder answered EP',
          notes: errorCodeNote('NO_CARD'),
          retryable: false,
        },
        timeline: [
          { state: 'Received', at: now - 60_000 },
          { state: 'Processing', at: now - 59_000 },
          { state: 'Error', at: now - 30_000 },
        ],
      }),
      command({
        id: 'cmd-receipt',
        state: 'Processed',
        finishedAt: now - 100_000,
        notes: textMessage('Receipt 0012-0034 printed'),
        result: { receiptNumber: '0012-0034', zNumber: 12, printerSerial: '99MEX012345' },
        timeline: [
          { state: 'Received', at: now - 110_000 },
          { state: 'Processing', at: now - 109_000 },
          { state: 'Processed', at: now - 100_000 },
        ],
      }),
    ],
    perMinute: Array.from({ length: 60 }, (_, i) => ({
      minute: now - (60 - i) * 60_000,
      processed: i % 7,
      failed: i % 13 === 0 ? 1 : 0,
      ...(i % 5 === 0 ? {} : { pickupP50Ms: 400 + i * 10 }),
    })),
    totals: { processed: 41, failed: 2, cancelled: 1, inFlight: 3 },
  };
}

/**
 * A StatusSource driven by the test: set `snap` and `healthValue`, `emit()` events, read
 * `cutCalls`. `cutKeys` resolves to `cmd-new-<n>` unless `cutError` is set.
 */
export class FakeSource implements StatusSource {
  snap: AgentSnapshot = sampleSnapshot();
  healthValue: Health = { ok: true, reasons: [] };
  readonly cutCalls: CutKeysRequest[] = [];
  cutError: AgentError | undefined;
  private readonly listeners = new Set<(event: AgentEvent) => void>();

  snapshot(): AgentSnapshot {
    return structuredClone(this.snap);
  }

  health(): Health {
    return structuredClone(this.healthValue);
  }

  subscribe(listener: (event: AgentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  emit(event: AgentEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** How often staff asked to try delivery now. */
  deliverNowCalls = 0;

  /**
   * As the engine does: a pause after failures (`outbox.trouble.until`) ends; the platform's rate
   * limit still holds (its `blockedUntil` is reported).
   */
  deliverNow(): DeliverNowResult {
    this.deliverNowCalls++;
    const { outbox, now, platform } = this.snap;
    const lifted = outbox.pending > 0 && outbox.trouble?.until !== undefined && outbox.trouble.until > now;
    if (lifted && outbox.trouble) delete outbox.trouble.until;
    const blocked = platform.budget.blockedUntil;
    return {
      pending: outbox.pending,
      lifted,
      ...(blocked !== undefined && blocked > now ? { rateLimitedUntil: blocked } : {}),
    };
  }

  async cutKeys(request: CutKeysRequest): Promise<string> {
    this.cutCalls.push(request);
    if (this.cutError) throw this.cutError;
    return `cmd-new-${this.cutCalls.length}`;
  }

  /** Records a transition in the snapshot (as the agent would) and emits it. */
  transition(commandId: string, to: CommandSummary['state'], at = this.snap.now): void {
    const existing = this.snap.recent.find((c) => c.id === commandId);
    if (existing) {
      existing.state = to;
      existing.timeline.push({ state: to, at });
    } else {
      this.snap.recent.unshift(
        command({
          id: commandId,
          deviceId: ENCODER_ID,
          deviceName: 'Key encoder',
          kind: 'keys',
          state: to,
          seenAt: at,
          timeline: [{ state: to, at }],
        }),
      );
    }
    this.emit({
      type: 'transition',
      at,
      commandId,
      deviceId: ENCODER_ID,
      deviceType: 'KeyCutter',
      kind: 'keys',
      to,
    });
  }
}
