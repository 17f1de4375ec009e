import type { ContractEntry } from '../entry.js';
import { customEntry } from './custom.js';
import { epsonEntry } from './epson.js';
import { fiasEntry } from './fias.js';
import { ippEntries } from './ipp.js';
import { rchEntry } from './rch.js';
import { saltoEntries } from './salto.js';
import { simEntries } from './sim.js';

/** Every driver on every device the contract suite runs over; a new driver adds its entry here. */
export const contractEntries: ContractEntry[] = [
  ...simEntries,
  epsonEntry,
  customEntry,
  rchEntry,
  ...saltoEntries,
  fiasEntry,
  ...ippEntries,
];
