/** Simulated devices: the fiscal printer and the key encoder `npm start` and the e2e tests use. */
export { simEncoderFactory } from './encoder.js';
export { simFiscalFactory } from './fiscal.js';
export type { Ledger, LedgerEntry } from './ledger.js';
