import type { DriverFactory, DriverRegistry } from '../src/drivers-api/types.js';
// Every family's sentences, loaded with the registry (they are small and load nothing else), so
// that a Note in the journal renders in either language even when its driver is not loaded.
import './custom-rt/messages.js';
import './custom-rt/messages-describe.js';
import './custom-rt/messages-printer.js';
import './epson-fpmate/messages.js';
import './fias-lock/messages.js';
import './fiscal-it/messages.js';
import './fiscal-it/rt/messages.js';
import './ipp-printer/messages.js';
import './salto-encoder/messages.js';
import './sim/messages.js';

/**
 * Every driver this build knows, by the config's `driver:` name. Each entry imports its driver
 * only when a configured device asks for it, so a site without USB-HID never loads node-hid and a
 * site without serial encoders never loads serialport.
 */
const entries: Array<[string, () => Promise<DriverFactory<unknown>>]> = [
  ['sim-fiscal', async () => (await import('./sim/index.js')).simFiscalFactory as DriverFactory<unknown>],
  ['sim-encoder', async () => (await import('./sim/index.js')).simEncoderFactory as DriverFactory<unknown>],
  [
    'epson-fpmate',
    async () => (await import('./epson-fpmate/index.js')).epsonFpmateFactory as DriverFactory<unknown>,
  ],
  ['custom-rt', async () => (await import('./custom-rt/index.js')).customRtFactory as DriverFactory<unknown>],
  [
    'ipp-printer',
    async () => (await import('./ipp-printer/index.js')).ippPrinterFactory as DriverFactory<unknown>,
  ],
  ['fias-lock', async () => (await import('./fias-lock/index.js')).fiasLockFactory as DriverFactory<unknown>],
  [
    'salto-encoder',
    async () => (await import('./salto-encoder/index.js')).saltoEncoderFactory as DriverFactory<unknown>,
  ],
];

export const driverRegistry: DriverRegistry = new Map(entries);
