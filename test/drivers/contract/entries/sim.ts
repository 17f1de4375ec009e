import { simEncoderFactory, simFiscalFactory } from '../../../../drivers/stand-ins/index.js';
import type { LedgerEntry } from '../../../../drivers/stand-ins/ledger.js';
import type { CommandData } from '../../../../src/connector/model.js';
import type { DeviceStore, DriverFactory } from '../../../../src/drivers-api/types.js';
import { jobFor, memoryStore, testDriverContext } from '../../../helpers/driver-context.js';
import type { ContractEntry, ContractRig } from '../entry.js';

/**
 * The simulated devices: their "device" is the ledger in the driver's `DeviceStore` (what the
 * simulated printer emitted, which cards the simulated encoder cut), watched here as it is
 * written. They have no link that could go away.
 */

const FAST = { durationMs: 0, jitterMs: 0 };

/** A DeviceStore that tells `onLedger` each time the simulated device records an action. */
function watchedStore(onLedger: () => void): DeviceStore {
  const store = memoryStore();
  return {
    get: (key) => store.get(key),
    set: (key, value) => {
      store.set(key, value);
      if (key === 'ledger') onLedger();
    },
    flush: () => store.flush(),
  };
}

function simRig<C>(factory: DriverFactory<C>, action: string, data: CommandData, units: number): ContractRig {
  const listeners = new Set<() => void>();
  const store = watchedStore(() => {
    for (const l of [...listeners]) l();
  });
  const options = factory.configSchema.parse(FAST);
  let jobs = 0;
  const count = () => {
    const ledger = store.get('ledger');
    return Array.isArray(ledger) ? (ledger as LedgerEntry[]).filter((e) => e.action === action).length : 0;
  };
  return {
    driver: () => factory.create(options, testDriverContext({ store })),
    job: () => jobFor(data, { commandId: `sim-${++jobs}` }),
    units,
    effects: count,
    finished: count,
    onEffect: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: async () => undefined,
  };
}

const offers = { device: false, effectMoment: true, finished: true };

export const simEntries: ContractEntry[] = [
  {
    name: 'sim-fiscal',
    kind: 'sim-fiscal',
    offers,
    rig: async () =>
      simRig(
        simFiscalFactory,
        'receipt',
        {
          kind: 'fiscal',
          fiscal: {
            machineSettings: { value: {} },
            bill: { id: 'bill-1' },
            document: { type: 'payload', base64: Buffer.from('<printerFiscalReceipt/>').toString('base64') },
          },
        },
        1,
      ),
  },
  {
    name: 'sim-encoder',
    kind: 'sim-encoder',
    offers,
    rig: async () =>
      simRig(
        simEncoderFactory,
        'card',
        {
          kind: 'keys',
          keys: {
            keyCount: 3,
            lockIds: ['101'],
            startUtc: '2026-11-21T14:00:00Z',
            endUtc: '2026-11-23T10:00:00Z',
            guest: { lastName: 'Rossi' },
            settings: { value: {} },
          },
        },
        3,
      ),
  },
];
