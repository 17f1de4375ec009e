/**
 * The Custom RT printer simulator's public surface: an HTTP(S) server speaking Custom's XML web
 * service as a 3rd-generation Custom RT does (`server.ts`), written from the vendor's manuals and
 * the two public clients, never from the driver beside it ("our simulators share our
 * assumptions"). Sources: Custom "WEB SERVICES – Commands manual for 3rd generation fiscal
 * devices" rev 2.00 ("XML", pages cited as p.N) with its STATUS REPORT GUIDE ("XML-SG"), Custom
 * "PROTOCOLLO CUSTOM PER DISPOSITIVI FISCALI" rev 6.00 ("DIO"), both in fiskaltrust/middleware
 * `scu-it/src/fiskaltrust.Middleware.SCU.IT.CustomRTPrinter/docs/`; fiskaltrust's C# client
 * ("FT") and lyancoder/fiscal-printer's TypeScript client ("LY").
 *
 * What it models:
 * - transport: `POST /xml/printer.htm`, one request at a time, HTTP Basic (serial:serial by
 *   default, 401 otherwise), HTTP or HTTPS; no SOAP (XML pp.13–14);
 * - roots `printerFiscalReceipt`, `printerNotFiscal`, `printerFiscalReport`, `printerCommand` and
 *   their structure rules: one node per report/command request (pp.18, 20), a parser error on
 *   malformed XML, processing up to a refused node with the receipt left open (p.31);
 * - sales (`printer.ts`, `receipt.ts`): integer-cent prices, quantity in thousandths, `idVat` or
 *   the department's VAT, item and subtotal adjustments (2 markup / 3 discount), deposits, goods
 *   returns, payments 1–30 and 50–53 with change from cash only, messages, the customer's CF/P.IVA
 *   (`fixedLines pitch="B"`, dropped silently when invalid), the lottery code (refused with cash);
 * - RT refunds and voids (`reference.ts`): `beginRtDocRefund`/`beginRtDocAnnulment` with the
 *   original's Z, number, date and serial, `checkOnly="1"` answering 0/1/2 (+ `ejDocVat`) without
 *   printing, refusal of unknown or already voided/refunded originals and of refunds beyond what
 *   is left; the `…Special` forms; bodies with or without payments (FT sends none);
 * - counters and the day (`documents.ts`, `reports.ts`): Z and document numbers (`nClose`,
 *   `fiscalDoc`), the first document opens the day, 70 after 24 hours open, X, Z and X+Z reports
 *   with the day's totals, 71 for a Z with no document, getDailyTotals, getVatTotalsOnDemand;
 * - `IdCmd` on any node and `lastIdCmd` in every later answer (`answer.ts`, p.25);
 * - directIO 1001, 1017 (with the manual's 4-byte echo, or without by fault), 1104, 1106, 1107,
 *   1514, 1530 (`direct-io.ts`); queryPrinterStatus, getInfo, getBusyStatus, getDateTime,
 *   getVatRate over the VAT table of slots 01–11 with their exempt codes (XML p.71, DIO 7112
 *   p.253), setVatRate (p.116), resetPrinter (`commands.ts`);
 * - `codLottery` on a refund or void (pp.36, 38), kept with the document;
 * - faults (`types.ts` `CustomFaults`): paper out (16), cover open (64), paper low (a flag only),
 *   busy (213 or another busy status; queries still answer), fiscal documents refused with a
 *   given status (54, 61, 84…), a lost answer after a printing request is carried out, a slow
 *   answer on the simulator's clock, connection refused, an HTML page, 1017 without its echo,
 *   `lastIdCmd` moving only on success, closures waiting for transmission.
 *
 * What it does not model: fiscal invoices and credit notes (`printerFiscalDocument`),
 * dematerialised receipts (PDF; `dematerializedOn` is accepted and ignored), the adjustment voids,
 * `getRecTotal`, `getDocumentFromEj`, `getFullRTStatus`, `getZReports`, display and drawer effects,
 * the automatic reprint after a paper change (DIO p.21), error 61, the 1530 warning-only state,
 * transmission to the tax agency (1514 counts only what `filesToSend` says), power cycles, and the
 * empirical FT findings that a refund needs its Z closed and a void is refused after transmission.
 *
 * Production code reaches it only through `simulate()` in `../index.ts`, by a dynamic import.
 */
export type {
  BusyStatus,
  CustomDepartment,
  CustomFaultName,
  CustomFaults,
  CustomHandledRequest,
  CustomPrintedDocument,
  CustomPrintedLine,
  CustomPrintedPayment,
  CustomRtSimulator,
  CustomRtSimulatorOptions,
  DayTotals,
} from './server.js';
export { DEFAULT_SERIAL, startCustomRtSimulator } from './server.js';
