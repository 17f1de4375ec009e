/**
 * What the simulator counts: every Connector API request by operation and status, every 429 it
 * sent, every fault it injected, commands and WebSocket traffic; plus a request log
 * `{at, operation, status}` (bounded to the newest `REQUEST_LOG_LIMIT` entries) from which a test
 * can prove that nothing was sent during a `Retry-After`.
 */

export const REQUEST_LOG_LIMIT = 100_000;

export type FaultName =
  | 'latency'
  | 'server-error'
  | 'reset'
  | 'hang'
  | 'captive-portal'
  | 'gzip-bomb'
  | 'rate-limit-burst'
  | 'malformed'
  | 'cancel-on-processing'
  | 'websocket-drop'
  | 'websocket-refused';

export interface RequestLogEntry {
  /** Epoch ms (simulator clock) the request arrived. */
  at: number;
  /** `commands/update` …; for an unknown path, the path itself. */
  operation: string;
  /** HTTP status; 0 when nothing was answered (reset, hang). */
  status: number;
  requestId: string;
  fault?: FaultName;
  retryAfterSeconds?: number;
}

export interface SimCounters {
  requests: {
    total: number;
    byOperation: Record<string, Record<string, number>>;
    byStatus: Record<string, number>;
  };
  /** 429 answers sent (window exceeded or burst fault). */
  rateLimited: number;
  /** Command items `fiscalMachineCommands/getAll` answered with, every page (issue 26.2's figure). */
  fiscalItemsListed: number;
  faults: Record<FaultName, number>;
  commands: {
    created: number;
    byKind: Record<string, number>;
    updatesAccepted: number;
    updatesRejected: number;
    cancelledByStaff: number;
  };
  websocket: { connections: number; rejected: number; messages: number; open: number };
}

function emptyFaults(): Record<FaultName, number> {
  return {
    latency: 0,
    'server-error': 0,
    reset: 0,
    hang: 0,
    'captive-portal': 0,
    'gzip-bomb': 0,
    'rate-limit-burst': 0,
    malformed: 0,
    'cancel-on-processing': 0,
    'websocket-drop': 0,
    'websocket-refused': 0,
  };
}

function empty(): SimCounters {
  return {
    requests: { total: 0, byOperation: {}, byStatus: {} },
    rateLimited: 0,
    fiscalItemsListed: 0,
    faults: emptyFaults(),
    commands: { created: 0, byKind: {}, updatesAccepted: 0, updatesRejected: 0, cancelledByStaff: 0 },
    websocket: { connections: 0, rejected: 0, messages: 0, open: 0 },
  };
}

export class Metrics {
  private data = empty();
  private log: RequestLogEntry[] = [];

  request(entry: RequestLogEntry): void {
    const { requests } = this.data;
    requests.total++;
    const status = String(entry.status);
    const byOp = requests.byOperation[entry.operation] ?? {};
    byOp[status] = (byOp[status] ?? 0) + 1;
    requests.byOperation[entry.operation] = byOp;
    requests.byStatus[status] = (requests.byStatus[status] ?? 0) + 1;
    if (entry.status === 429) this.data.rateLimited++;
    this.log.push(entry);
    if (this.log.length > REQUEST_LOG_LIMIT) this.log.splice(0, this.log.length - REQUEST_LOG_LIMIT);
  }

  fiscalItemsListed(count: number): void {
    this.data.fiscalItemsListed += count;
  }

  fault(name: FaultName): void {
    this.data.faults[name]++;
  }

  commandCreated(kind: string): void {
    this.data.commands.created++;
    this.data.commands.byKind[kind] = (this.data.commands.byKind[kind] ?? 0) + 1;
  }

  update(accepted: boolean): void {
    if (accepted) this.data.commands.updatesAccepted++;
    else this.data.commands.updatesRejected++;
  }

  cancelledByStaff(): void {
    this.data.commands.cancelledByStaff++;
  }

  websocket(event: 'connected' | 'rejected' | 'message' | 'closed'): void {
    const ws = this.data.websocket;
    if (event === 'connected') {
      ws.connections++;
      ws.open++;
    } else if (event === 'closed') ws.open = Math.max(0, ws.open - 1);
    else if (event === 'rejected') ws.rejected++;
    else ws.messages++;
  }

  /** A deep copy: callers may keep it as a before/after snapshot. */
  counters(): SimCounters {
    return structuredClone(this.data);
  }

  requestLog(): RequestLogEntry[] {
    return this.log.map((e) => ({ ...e }));
  }

  /** Clears everything except the number of currently open WebSockets. */
  reset(): void {
    const open = this.data.websocket.open;
    this.data = empty();
    this.data.websocket.open = open;
    this.log = [];
  }
}
