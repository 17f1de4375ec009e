import { type CommandState, TERMINAL_STATES } from '../connector/wire.js';
import { AgentError } from '../errors.js';
import { Listeners } from '../listeners.js';
import type { MalformedKind } from './fault-schema.js';
import type { Envelope } from './fpmate.js';
import type { KnownReceipt } from './receipts.js';
import type { CommandKind } from './scenario.js';
import { utc } from './time.js';

/**
 * The simulated platform's commands and their histories, and the state rules of
 * `commands/update`. As the document says (Part B › States and transitions), any state moves to
 * the state given; every move is recorded in the command's history, so tests judge the agent by
 * the history. With `forwardOnly` (a rule the document never states, kept as a switch) nothing
 * leaves a terminal state (Processed, Cancelled, Error) and nothing moves backwards
 * (Pending < Received < Processing < terminal); repeating a non-terminal state is allowed
 * (progress updates). `Progress` is kept only with Processing, `Notes` only with Processed,
 * Cancelled or Error — the rest is ignored, as the document says.
 */

export type FiscalDocumentSpec =
  | { type: 'data'; isRefund: false; serialNumber?: string }
  | { type: 'data'; isRefund: true; rebated: KnownReceipt }
  | { type: 'payload'; envelope: Envelope; xml: string };

export type CommandPayload =
  | { kind: 'fiscal-data' | 'fiscal-refund' | 'fiscal-payload'; billId: string; document: FiscalDocumentSpec }
  | { kind: 'keys'; reservationId: string; keyCount: number }
  | { kind: 'printer'; copyCount: number; fileType: string; fileData: string }
  | { kind: 'payment-terminal'; amountCents: number; billId: string; customerId: string };

/** Who moved a command: the platform created it, the agent updated it, staff cancelled it. */
export type Actor = 'platform' | 'agent' | 'staff';

export interface HistoryEntry {
  state: CommandState;
  /** UTC stamp of the change. */
  at: string;
  progress?: number;
  notes?: string;
  by: Actor;
}

export interface SimCommand {
  id: string;
  seq: number;
  kind: CommandKind;
  deviceId: string;
  enterpriseId: string;
  state: CommandState;
  createdAt: number;
  updatedAt: number;
  creator: { firstName: string; lastName: string; profileId: string };
  payload: CommandPayload;
  malformed?: MalformedKind;
  history: HistoryEntry[];
}

export type CommandChange = { type: 'created' | 'updated'; command: SimCommand; entry: HistoryEntry };

const RANK: Record<CommandState, number> = {
  Pending: 0,
  Received: 1,
  Processing: 2,
  Processed: 3,
  Cancelled: 3,
  Error: 3,
};

export function isTerminal(state: CommandState): boolean {
  return TERMINAL_STATES.includes(state);
}

/** A refusal the HTTP layer turns into `{Message}` with `details.status`. */
export function rejection(status: 400 | 401 | 403 | 404 | 409 | 429, message: string): AgentError {
  const code =
    status === 400
      ? 'REQUEST_INVALID'
      : status === 401
        ? 'PLATFORM_AUTH'
        : status === 403
          ? 'PLATFORM_FORBIDDEN'
          : status === 404
            ? 'PLATFORM_NOT_FOUND'
            : status === 409
              ? 'PLATFORM_CONFLICT'
              : 'RATE_LIMITED';
  return new AgentError(code, message, { details: { status } });
}

export class CommandStore {
  private readonly byId = new Map<string, SimCommand>();
  private ordered: SimCommand[] = [];
  private seq = 0;
  /** A listener's error reaches the caller, as a test's failed expectation must. */
  private readonly listeners = new Listeners<[CommandChange]>((error) => {
    throw error;
  });

  /** Calls `listener` after every creation and every accepted update; returns the unsubscribe. */
  subscribe(listener: (change: CommandChange) => void): () => void {
    return this.listeners.add(listener);
  }

  private emit(change: CommandChange): void {
    this.listeners.emit(change);
  }

  add(command: Omit<SimCommand, 'seq' | 'state' | 'updatedAt' | 'history'>): SimCommand {
    const entry: HistoryEntry = { state: 'Pending', at: utc(command.createdAt), by: 'platform' };
    const full: SimCommand = {
      ...command,
      seq: ++this.seq,
      state: 'Pending',
      updatedAt: command.createdAt,
      history: [entry],
    };
    this.byId.set(full.id, full);
    this.ordered.push(full);
    this.emit({ type: 'created', command: full, entry });
    return full;
  }

  get(id: string): SimCommand | undefined {
    return this.byId.get(id);
  }

  /** Every command, newest (most recently created) first. */
  newestFirst(): SimCommand[] {
    return [...this.ordered].reverse();
  }

  get size(): number {
    return this.ordered.length;
  }

  /**
   * Applies one `commands/update` and records it. Rejects (400) for an unknown id and, with
   * `forwardOnly`, for a move out of a terminal state or backwards; the command is unchanged then.
   */
  update(
    id: string,
    change: { state: CommandState; progress?: number; notes?: string },
    by: Actor,
    at: number,
    options: { forwardOnly?: boolean } = {},
  ): SimCommand {
    const command = this.byId.get(id);
    if (!command) throw rejection(400, `Invalid CommandId: no command ${id}`);
    if (options.forwardOnly !== false) this.checkForward(command, change.state);
    const entry: HistoryEntry = { state: change.state, at: utc(at), by };
    if (change.state === 'Processing' && change.progress !== undefined) entry.progress = change.progress;
    if (isTerminal(change.state) && change.notes !== undefined) entry.notes = change.notes;
    command.state = change.state;
    command.updatedAt = at;
    command.history.push(entry);
    this.emit({ type: 'updated', command, entry });
    return command;
  }

  private checkForward(command: SimCommand, state: CommandState): void {
    if (isTerminal(command.state)) {
      throw rejection(400, `Invalid State: the command is already ${command.state} and cannot change`);
    }
    if (RANK[state] < RANK[command.state]) {
      throw rejection(400, `Invalid State: the command is ${command.state} and cannot go back to ${state}`);
    }
  }

  clear(): void {
    this.byId.clear();
    this.ordered = [];
    this.seq = 0;
  }
}
