import type { SerializedError } from '../errors.js';
import type { Message } from '../messages/message.js';
import type { DecodedBytes } from '../transport/base64-stream.js';
import type { CommandState } from './wire.js';

/**
 * The agent's internal model of a platform command: one shape whichever operation it came from
 * (`fiscalMachineCommands/getAll` flat items, or `commands/*` items with a typed `Data`). The core
 * and the drivers see only this model, never the wire.
 */
export interface PlatformCommand {
  id: string;
  state: CommandState;
  createdUtc: string;
  device: { id: string; type: string; name: string; identifier?: string };
  /** "First Last" of the creator when the platform says who it was. */
  creatorName?: string;
  source: 'fiscalMachineCommands' | 'commands';
  data: CommandData;
}

export type CommandData =
  | { kind: 'fiscal'; fiscal: FiscalJobData }
  | { kind: 'keys'; keys: KeyJobData }
  | { kind: 'print'; print: PrintJobData }
  /** A device type this agent does not handle (payment terminals, passport scanners, unknown). */
  | { kind: 'other'; deviceType: string };

/** A JSON-in-a-string field, parsed a second time. Garbage is kept as an error, never thrown. */
export interface EmbeddedJson {
  value: Record<string, unknown>;
  error?: string;
}

export interface FiscalBill {
  id: string;
  number?: string;
  name?: string;
  issuedUtc?: string;
  enterpriseId?: string;
  /** For a corrective bill, how it corrects (`Cancellation`, `CreditNote` …), as the platform says. */
  correctionType?: string;
  /** Items a legacy bill still carries (`Revenue`); absent on bills of version 2025-06-23. */
  legacyItems?: LegacyLine[];
  /** Payments a legacy bill still carries. */
  legacyPayments?: LegacyLine[];
  /**
   * Whom the bill was closed for, as far as Italian fiscal law asks: a consumer (`customer`) or a
   * business (`company`) — the bill's `AccountType`, else its owner's discriminator — and the
   * consumer's lottery code (`LegalIdentifiers.ItLotteryCode` of the owner's customer data). Only
   * this is kept of the owner; it is dropped with the rest when the command closes.
   */
  buyer?: { kind: 'customer' | 'company'; lotteryCode?: string };
}

export interface LegacyLine {
  name: string;
  type?: string;
  unitCount: number;
  /** Gross amount of the whole line. */
  gross: number;
  /** Net amount and total tax of the whole line, when the platform gives them (they tell the VAT rate). */
  net?: number;
  tax?: number;
  currency: string;
  taxCodes: string[];
  canceled: boolean;
}

export type FiscalDocument =
  | { type: 'payload'; base64: string }
  | {
      type: 'data';
      isRefund: boolean;
      /** The receipt a refund refers to, as the platform gave it. */
      rebated?: { receiptNumber?: string; sequence?: string; dateTimeUtc?: string };
      printerSerialNumber?: string;
    };

export interface FiscalJobData {
  fiscalMachineId?: string;
  apiUrl?: string;
  machineSettings: EmbeddedJson;
  taxIdentifier?: string;
  bill: FiscalBill;
  document: FiscalDocument;
}

export interface KeyJobData {
  keyCount: number;
  lockIds: string[];
  startUtc: string;
  endUtc: string;
  guest: {
    firstName?: string;
    lastName: string;
    normalizedFirstName?: string;
    normalizedLastName?: string;
    telephone?: string;
    email?: string;
  };
  reservationId?: string;
  reservationNumber?: string;
  /** The encoder's id in the lock software (free string, not the Device uuid). */
  keyCutterId?: string;
  apiUrl?: string;
  settings: EmbeddedJson;
}

export interface PrintJobData {
  copyCount: number;
  fileType: string;
  /**
   * The document in Base64, as the platform sends it; empty when it arrived decoded already
   * (`document`).
   */
  fileData: string;
  /**
   * The document decoded as the answer arrived (`document-spool.ts`): the agent's own HTTP stack
   * reads `FileData` this way, so a large document never becomes text. Absent when `fileData`
   * holds it (test doubles, the simulators' in-process paths).
   */
  document?: DecodedBytes;
  printerName: string;
  printerDriverName?: string;
  printerPortName?: string;
}

/**
 * Why an item cannot be read, as the journal keeps an error (`SerializedError`): a record, not an
 * `Error` — an answer of 400,000 malformed items must not cost 400,000 stack traces (issue 40, M4).
 */
export type InvalidCommand = SerializedError & { code: 'COMMAND_INVALID'; notes: Message };

/** What normalising one list item gave: a command, or why not, naming what is known of it. */
export type NormalizedItem =
  | { ok: true; command: PlatformCommand }
  | { ok: false; id?: string; deviceId?: string; deviceType?: string; state?: string; error: InvalidCommand };
