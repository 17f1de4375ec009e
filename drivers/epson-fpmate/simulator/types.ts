import type { EmittedDocument, PrinterFaults } from '../../simulator-kit/faults.js';
import type { DayTotals } from './programming.js';
import type { PrintedLine, PrintedPayment } from './receipt.js';
import type { SimReference } from './reference.js';

/** One document the simulated printer emitted (`dateTime`: "yyyy-MM-dd HH:mm"). */
export interface PrintedDocument extends EmittedDocument {
  kind: 'sale' | 'refund' | 'void' | 'non-fiscal' | 'z-report' | 'x-report';
  header: string[];
  lines: PrintedLine[];
  payments: PrintedPayment[];
  reference?: SimReference;
  /** Non-fiscal text lines. */
  text?: string[];
  refundedCents: number;
  voided: boolean;
  customer?: { command: '1060' | '1061'; id: string };
  lottery?: string;
  /** X and Z reports: the day's totals they show. */
  totals?: DayTotals;
  /** A copy printed from the journal (`directIO 3098`): the receipt it copies. */
  copyOf?: { z: number; doc: number };
}

/** The switches of the simulated printer (see `setFault`). */
export interface Faults extends PrinterFaults {
  busy?: boolean;
  /** Documents are printed, then answered LAN_TIME_OUT (fpmate lost the fiscal unit mid-document). */
  timeOutAfterPrint?: boolean;
  /**
   * Documents are recorded, then answered EPTR_REC_EMPTY: the roll ended after the fiscal commit
   * (fiskaltrust `Models/ErrorInfoFactory.cs` L19 names the code; ErpNet.FP #126 shows a fiscal
   * printer registering a receipt yet answering an error).
   */
  paperEndsAfterPrint?: boolean;
  /** Every answer is `bytes` of junk, streamed (documents are printed first). */
  oversizedAnswer?: { bytes: number };
  /** Every answer breaks off half-way (documents are printed first). */
  truncatedAnswer?: boolean;
  dropAfterPrint?: boolean;
  dropBeforePrint?: boolean;
  journalNearFull?: boolean;
  dayOpenOver24h?: boolean;
  lastDocUnreadable?: boolean;
  trainingMode?: boolean;
  /** Overrides the RT file counters of the status answer. */
  rtFiles?: { toSend?: number; old?: number; rejected?: number };
  /** The tax agency cannot be reached: daily files wait (and turn old after a day). */
  transmissionDown?: boolean;
  /** The RT is not in service: `rtMainStatus` 01 with this `rtSubStatus` (02 … 08). */
  rtNotInService?: { subStatus: string };
  /** An older firmware: directIO 9205 (the reference check) is unknown, PRINTER ERROR 16. */
  noReferenceCheck?: boolean;
  /** An older firmware: directIO 4202/4205 (the programming reads) are unknown, PRINTER ERROR 16. */
  noProgrammingRead?: boolean;
  /** Fiscal documents are refused with PRINTER ERROR `status` (e.g. a 17 for another reason). */
  refuseDocuments?: { status: string };
}
