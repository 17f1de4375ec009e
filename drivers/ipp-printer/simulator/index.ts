/**
 * The IPP printer simulator's public surface: a network of simulated printers on one loopback
 * port (`server.ts`: HTTP, CUPS-Get-Printers, going offline, lost or held answers), answering the
 * IPP operations as `ippeveprinter` does (`ipp.ts`), each with its queue, pages and fault switches
 * (`printer.ts`). It shares the IPP wire codec and constants with the driver, never the driver's
 * decisions, and is checked against CUPS's `ippeveprinter`.
 *
 * Production code reaches it only through `simulate()` in `../index.ts`, by a dynamic import, so
 * an agent driving a real printer never loads it.
 */
export type {
  IppSimulator,
  IppSimulatorOptions,
  SimJob,
  SimPrinterFaults,
  SpooledDocument,
} from './server.js';
export { SimPrinter, startIppSimulator } from './server.js';
