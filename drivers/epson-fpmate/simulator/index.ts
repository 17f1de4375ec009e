/**
 * The Epson RT printer simulator's public surface: an HTTP(S) server speaking fpmate.cgi as the
 * printer does (`server.ts`), with the printer's fiscal memory (`printer.ts`: Z and document
 * counters, day totals), the checks an RT makes on a receipt (`receipt.ts`, `codes.ts`), its
 * department programming (`programming.ts`), reports (`reports.ts`) and answer XML (`xml.ts`).
 * It follows Epson's fpmate documentation and the public drivers the README cites, not the driver
 * beside it: it may share the wire format's constants and codecs with the driver, never the
 * driver's decisions.
 *
 * Production code reaches it only through `simulate()` in `../index.ts`, by a dynamic import, so
 * an agent driving a real printer never loads it.
 */
export type {
  DayTotals,
  DepartmentClass,
  FaultName,
  Faults,
  FpmateSimulator,
  FpmateSimulatorOptions,
  HandledRequest,
  PrintedDocument,
} from './server.js';
export { startFpmateSimulator } from './server.js';
