import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { PlatformSimulator, ScenarioInput } from '../../src/platform-simulator/index.js';
import { startSim } from './support.js';

const devices: ScenarioInput['devices'] = [
  {
    id: 'fm-1',
    type: 'FiscalMachine',
    name: 'RT 1',
    apiUrl: 'http://127.0.0.1:8091',
    serialNumber: '99MEY000001',
  },
  {
    id: 'fm-2',
    type: 'FiscalMachine',
    name: 'RT 2',
    apiUrl: 'http://127.0.0.1:8092',
    serialNumber: '99MEY000002',
  },
  { id: 'enc-1', type: 'KeyCutter', name: 'Encoder 1', keyCutterId: '1' },
  { id: 'prn-1', type: 'Printer', name: 'Laser' },
  { id: 'pt-1', type: 'PaymentTerminal', name: 'Terminal' },
];

function fingerprint(sim: PlatformSimulator): string[] {
  return sim.commands().map((c) => JSON.stringify([c.kind, c.deviceId, c.malformed, c.wire]));
}

/** The seeded runs' start: a May morning, so their commands' dates are fixed too. */
const MORNING = Date.UTC(2026, 4, 4, 8);

/**
 * A simulator whose scenario generates commands, on a manual clock: the five `devices` above
 * unless the scenario lists its own, the given seed (the simulator's default otherwise).
 */
async function startGenerating(
  scenario: ScenarioInput,
  options: { seed?: number; start?: number } = {},
): Promise<{ clock: ManualClock; sim: PlatformSimulator }> {
  const clock = new ManualClock(options.start);
  const seed = options.seed === undefined ? {} : { seed: options.seed };
  const sim = await startSim({ clock, ...seed, scenario: { devices, ...scenario } });
  return { clock, sim };
}

/** Advances the clock `ms` in half-second steps, calling `before(t)` ahead of each step. */
async function advanceInSteps(clock: ManualClock, ms: number, before?: (t: number) => void): Promise<void> {
  for (let t = 0; t < ms; t += 500) {
    before?.(t);
    await clock.advance(500);
  }
}

async function run(
  seed: number,
  generator: ScenarioInput['generator'],
  ms: number,
): Promise<PlatformSimulator> {
  const { clock, sim } = await startGenerating({ generator }, { seed, start: MORNING });
  await advanceInSteps(clock, ms);
  return sim;
}

describe('command generator', () => {
  const busy: ScenarioInput['generator'] = {
    rate: 2,
    backlog: 5,
    mix: { fiscalData: 2, fiscalRefund: 1, fiscalPayload: 2, keys: 2, printer: 1, paymentTerminal: 1 },
  };

  it('produces the same commands for the same seed, and different ones for another seed', async () => {
    const a = await run(42, busy, 10_000);
    const b = await run(42, busy, 10_000);
    const c = await run(43, busy, 10_000);
    expect(fingerprint(a)).toHaveLength(25);
    expect(fingerprint(a)).toEqual(fingerprint(b));
    expect(fingerprint(c)).not.toEqual(fingerprint(a));
    expect(new Set(a.commands().map((x) => x.kind)).size).toBeGreaterThanOrEqual(4);
  });

  it('is not shifted by commands created by hand meanwhile', async () => {
    const { clock, sim } = await startGenerating({ generator: busy }, { seed: 42, start: MORNING });
    await advanceInSteps(clock, 10_000, (t) => {
      if (t === 3000) sim.createKeys();
    });
    const reference = fingerprint(await run(42, busy, 10_000));
    const mine = fingerprint(sim);
    expect(mine).toHaveLength(26);
    expect(reference.every((f) => mine.includes(f))).toBe(true);
    expect(mine.filter((f) => !reference.includes(f))).toHaveLength(1);
  });

  it('creates `rate` commands per second and the backlog at start', async () => {
    const { clock, sim } = await startGenerating({ generator: { rate: 4, backlog: 3 } });
    expect(sim.commands()).toHaveLength(3);
    expect(sim.generatorRunning).toBe(true);
    await clock.advance(2000);
    expect(sim.commands()).toHaveLength(3 + 8);
    sim.stopGenerator();
    sim.stopGenerator();
    await clock.advance(5000);
    expect(sim.commands()).toHaveLength(11);
    sim.startGenerator();
    sim.startGenerator();
    await clock.advance(1000);
    expect(sim.commands()).toHaveLength(15);
  });

  it('fires bursts at their offsets, repeating when asked', async () => {
    const { clock, sim } = await startGenerating({
      generator: {
        bursts: [
          { atSeconds: 5, count: 10, everySeconds: 10 },
          { atSeconds: 1, count: 2 },
        ],
      },
    });
    await clock.advance(999);
    expect(sim.commands()).toHaveLength(0);
    await clock.advance(1);
    expect(sim.commands()).toHaveLength(2);
    await clock.advance(4000);
    expect(sim.commands()).toHaveLength(12);
    await clock.advance(10_000);
    expect(sim.commands()).toHaveLength(22);
  });

  it('follows the mix, only among kinds that have a device, and only on the listed devices', async () => {
    const { clock, sim } = await startGenerating({
      devices: devices.filter((d) => d.type !== 'PaymentTerminal'),
      generator: {
        rate: 10,
        devices: ['fm-2', 'enc-1'],
        mix: { fiscalData: 1, fiscalRefund: 0, fiscalPayload: 1, keys: 1, printer: 5, paymentTerminal: 5 },
      },
    });
    await clock.advance(5000);
    const commands = sim.commands();
    expect(commands).toHaveLength(50);
    expect(new Set(commands.map((c) => c.deviceId))).toEqual(new Set(['fm-2', 'enc-1']));
    expect(new Set(commands.map((c) => c.kind))).toEqual(new Set(['fiscal-data', 'fiscal-payload', 'keys']));
  });

  it('turns refunds into sales until a receipt is known, then refers to known receipts', async () => {
    const { clock, sim } = await startGenerating({
      generator: {
        rate: 1,
        mix: { fiscalData: 0, fiscalRefund: 1, fiscalPayload: 0, keys: 0, printer: 0 },
      },
    });
    await clock.advance(2000);
    expect(sim.commands().map((c) => c.kind)).toEqual(['fiscal-data', 'fiscal-data']);
    sim.addReceipt({
      serialNumber: '99MEY000002',
      zNumber: '0003',
      documentNumber: '0042',
      dateTimeUtc: '2026-01-01T10:00:00Z',
    });
    await clock.advance(1000);
    const [refund] = sim.commands();
    expect(refund?.kind).toBe('fiscal-refund');
    expect(refund?.deviceId).toBe('fm-2');
    expect(refund?.wire.fiscal?.CommandData).toMatchObject({
      ItalianFiscalMachineData: {
        IsRefund: true,
        RebatedReceiptNumber: '0042',
        RebatedReceiptSequence: '0003',
      },
    });
  });

  it('marks generated commands malformed at the configured rate', async () => {
    const { clock, sim } = await startGenerating({
      generator: { rate: 10 },
      faults: { malformed: { rate: 1, kinds: ['missing-field'] } },
    });
    await clock.advance(1000);
    expect(sim.commands().every((c) => c.malformed === 'missing-field')).toBe(true);
    expect(sim.counters().faults.malformed).toBe(10);
    expect(sim.createKeys().malformed).toBeUndefined();
  });

  it('generates payloads only for printers that take them, and makes one by id where asked', async () => {
    const [epson, custom] = devices.filter((d) => d.type === 'FiscalMachine');
    const scenario = {
      devices: [epson, { ...custom, payloads: false }] as ScenarioInput['devices'],
      generator: { rate: 2, mix: { fiscalData: 1, fiscalPayload: 3 } },
    };
    const { clock, sim } = await startGenerating(scenario, { seed: 7, start: MORNING });
    await advanceInSteps(clock, 10_000);
    const payloads = sim.commands().filter((c) => c.kind === 'fiscal-payload');
    expect(payloads.length).toBeGreaterThan(5);
    expect(new Set(payloads.map((c) => c.deviceId))).toEqual(new Set(['fm-1']));
    expect(sim.commands().some((c) => c.kind === 'fiscal-data' && c.deviceId === 'fm-2')).toBe(true);
    expect(sim.createFiscalPayload({ deviceId: 'fm-2' }).deviceId).toBe('fm-2');
  });
});
