/**
 * The RCH RT printer simulator's public surface (Print!F, Print!RT, Onda RT, the Tuttopos line):
 * an HTTP server speaking RCH's web service, `POST /service.cgi` with `<Service><cmd>…</cmd></Service>`
 * answered by `<Service><Request>…</Request>…</Service>` (`http.ts`, `service-xml.ts`), written from
 * the public sources only, by someone who has not read the RCH driver, so that the driver can be
 * tested against a device it did not shape. Sources, cited as `repo:path` where used:
 * - lucafabbri/rch-driver-js and lucafabbri/rch-driver-js-core (MIT, by an author at RCH): the
 *   native command strings, the keys, the queries, the journal read under PRG;
 * - linokoetting/iconic.mytrade.gutenbergPrinter-rch (JavaPOS): the keys, the journal read under Z,
 *   numbering (Z + 1, from 1 after each closure), discounts;
 * - lyancoder/fiscal-printer `lib/printer/RCH/`: the web service's request and answer;
 * - Leahcim12/optyker-web (`rch-connector/`, `supabase/`, `tests/`): a web-service client with real
 *   answers recorded (`<</?s` ECRStatus, `<</?m`/`<</?f` Enq, errorCode 101 with lastCmd 0), one
 *   command per request with `lastCmd` 1, `=k` voids, the journal read `=C3`, `=C453/$0`, `=C1`;
 * - RCH's "Manuale Web Service Print! F" V5 R03/2019, whose first pages are public on Scribd
 *   (document 755192319): one request at a time, "busy" otherwise, a document left open after an
 *   error, the answer's headers.
 *
 * What it models: sales by department and VAT with quantities, free/advance/voucher lines, text and
 * barcode lines, line and subtotal discounts and increases, department discounts, line void,
 * payments by form with change from cash only, the customer's code and the lottery code
 * (`receipt.ts`); refunds and voids by reference with the check-only step (`reference.ts`); keys,
 * X and Z reports and the journal read under Z or PRG (`reports.ts`); the queries (`queries.ts`);
 * non-fiscal documents; counters, day totals, grand total and the electronic journal
 * (`state.ts`, `journal.ts`); faults (`types.ts` `RchFaults`), a reboot and another till's
 * document (`printer.ts`).
 *
 * What no source shows is marked **inferred** where it is decided, and listed in
 * drivers/rch-rt/README.md, "Simulator: what is sourced, what is inferred": most error codes, the
 * check-only answer, the journal's layout, what a power cut or another till does.
 *
 * Not modelled: programming (`>`, `>>`), invoices, the journal reads by date or number (`=C451`,
 * `=C452`), reprints and gift receipts (`=C453/$1`, `/$2`), the legacy TCP protocol (port 23),
 * transmission to the tax agency, HTTPS.
 */

export { RCH_CODE } from './codes.js';
export type { RchRtSimulator, RchRtSimulatorOptions } from './simulator.js';
export {
  DEFAULT_DEPARTMENTS,
  DEFAULT_PAYMENTS,
  DEFAULT_SERIAL,
  DEFAULT_VAT,
  startRchRtSimulator,
} from './simulator.js';
export type * from './types.js';
