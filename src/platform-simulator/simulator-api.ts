import type { CommandState } from '../connector/wire.js';
import type { HistoryEntry } from './commands.js';
import type { CommandFilter, CommandView } from './core.js';
import type { DocumentRules } from './document.js';
import type { CreateCommandOptions } from './factory.js';
import type { Faults, FaultsPatch } from './fault-schema.js';
import type { RequestLogEntry, SimCounters } from './metrics.js';
import type { KnownReceipt } from './receipts.js';
import type { CommandKind } from './scenario.js';
import type { World } from './world.js';

/**
 * A running platform simulator. The in-process methods and the admin API (`/_sim/…`) are the same
 * operations; both act on the state the Connector API serves. Methods that refuse something throw
 * an AgentError whose `details.status` is the HTTP status the admin API would answer
 * (400 bad input, 404 unknown command, 409 command already terminal).
 */
export interface PlatformSimulator {
  /** `http://127.0.0.1:<port>`: base of the Connector API (`/api/connector/v1/…`) and admin API. */
  readonly url: string;
  /** `ws://127.0.0.1:<port>/ws/connector`. */
  readonly wsUrl: string;
  /** The tokens the simulator accepts. Secrets: never log them. */
  readonly tokens: { clientToken: string; accessToken: string };
  readonly seed: number;
  /** How the interface document is applied (strict-document mode: `STRICT_RULES`). */
  readonly rules: DocumentRules;
  /** Enterprises, devices, rooms and reservations of the scenario. */
  readonly world: World;

  /** Creates a Pending command (and pushes its WebSocket event). */
  createCommand(kind: CommandKind, options?: CreateCommandOptions): CommandView;
  createFiscalData(options?: CreateCommandOptions): CommandView;
  /** Refers to `options.receipt`, else to a known receipt not yet refunded (400 when none). */
  createFiscalRefund(options?: CreateCommandOptions): CommandView;
  createFiscalPayload(options?: CreateCommandOptions): CommandView;
  createKeys(options?: CreateCommandOptions): CommandView;
  createPrint(options?: CreateCommandOptions): CommandView;
  createPaymentTerminal(options?: CreateCommandOptions): CommandView;
  /** Staff cancels the command: it moves to Cancelled (with Notes) and an event is pushed. */
  cancelAsStaff(id: string, notes?: string): CommandView;

  command(id: string): CommandView | undefined;
  /** `[{state, progress?, notes?, at, by}]`, starting with the creation; [] for an unknown id. */
  history(id: string): HistoryEntry[];
  /** Newest first. */
  commands(filter?: CommandFilter): CommandView[];
  /** Number of commands per state. */
  stateCounts(): Record<CommandState, number>;

  counters(): SimCounters;
  requestLog(): RequestLogEntry[];

  faults(): Faults;
  /** Replaces the given sections; returns the switches now in force. */
  setFaults(patch: FaultsPatch): Faults;
  clearFaults(): Faults;

  startGenerator(): void;
  stopGenerator(): void;
  readonly generatorRunning: boolean;

  /** Drops every open WebSocket now; returns how many. */
  dropWebSockets(): number;
  readonly openWebSockets: number;

  /** Receipts the platform knows (from Notes of Processed fiscal commands, or the scenario). */
  receipts(): KnownReceipt[];
  addReceipt(receipt: Omit<KnownReceipt, 'refunded'>): KnownReceipt;

  /**
   * Back to the state right after start (commands, bills, learned receipts, counters, request
   * log, rate windows and faults as the scenario defines them; backlog again). Open WebSockets
   * stay open.
   */
  reset(): void;
  /** Stops everything and closes the server; idempotent. */
  close(): Promise<void>;
}
