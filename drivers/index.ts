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
import './rch-rt/messages.js';
import './rch-rt/messages-describe.js';
import './rch-rt/messages-printer.js';
import './salto-encoder/messages.js';
import './stand-ins/messages.js';

/**
 * What kind of device a family drives, for the lists that derive from this registry: the RT
 * recovery matrix takes every `rt-printer` (`test/drivers/rt-matrix/`), the key-job matrix every
 * `key-encoder`, the architecture tests and the contract suite every kind. A family registers
 * once, here; no other list of families is kept by hand.
 */
export type DriverGroup = 'rt-printer' | 'key-encoder' | 'office-printer' | 'simulated';

interface RegistryEntry {
  kind: string;
  group: DriverGroup;
  load: () => Promise<DriverFactory<unknown>>;
}

/**
 * Every driver this build knows, by the config's `driver:` name. Each entry imports its driver
 * only when a configured device asks for it, so a site without USB-HID never loads node-hid and a
 * site without serial encoders never loads serialport.
 */
const entry = (kind: string, group: DriverGroup, load: () => Promise<unknown>): RegistryEntry => ({
  kind,
  group,
  load: load as () => Promise<DriverFactory<unknown>>,
});

const entries: RegistryEntry[] = [
  entry('sim-fiscal', 'simulated', async () => (await import('./stand-ins/index.js')).simFiscalFactory),
  entry('sim-encoder', 'simulated', async () => (await import('./stand-ins/index.js')).simEncoderFactory),
  entry(
    'epson-fpmate',
    'rt-printer',
    async () => (await import('./epson-fpmate/index.js')).epsonFpmateFactory,
  ),
  entry('custom-rt', 'rt-printer', async () => (await import('./custom-rt/index.js')).customRtFactory),
  entry('rch-rt', 'rt-printer', async () => (await import('./rch-rt/index.js')).rchRtFactory),
  entry(
    'ipp-printer',
    'office-printer',
    async () => (await import('./ipp-printer/index.js')).ippPrinterFactory,
  ),
  entry('fias-lock', 'key-encoder', async () => (await import('./fias-lock/index.js')).fiasLockFactory),
  entry(
    'salto-encoder',
    'key-encoder',
    async () => (await import('./salto-encoder/index.js')).saltoEncoderFactory,
  ),
];

export const driverRegistry: DriverRegistry = new Map(entries.map((e) => [e.kind, e.load]));

/** The registered kinds of `group`, in registration order. */
export function kindsOf(group: DriverGroup): string[] {
  return entries.filter((e) => e.group === group).map((e) => e.kind);
}
