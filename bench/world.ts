import type { CommandView, PlatformSimulator, ScenarioInput } from '../src/platform-simulator/index.js';

/**
 * The benchmark's property: ten devices (five simulated RT printers, five simulated encoders)
 * whose job durations are fixed per device through the embedded JSON the simulated drivers read
 * (`{"sim": {"durationMs": …}}`), so our agent and the naive baseline see exactly the same
 * device timings. Nothing here is random except through the simulator's seed.
 */

export const BENCH_TOKENS = {
  clientToken: 'BENCH-CLIENT-TOKEN-SECRET-0001',
  accessToken: 'BENCH-ACCESS-TOKEN-SECRET-0002',
};

export interface BenchDevice {
  id: string;
  type: 'FiscalMachine' | 'KeyCutter';
  name: string;
}

/** Five fiscal printers then five encoders; ids are stable so configs are reproducible. */
export const BENCH_DEVICES: readonly BenchDevice[] = Array.from({ length: 10 }, (_, i) => ({
  id: `b0000000-0000-4000-8000-0000000000${String(i + 1).padStart(2, '0')}`,
  type: i < 5 ? 'FiscalMachine' : 'KeyCutter',
  name: i < 5 ? `RT ${i + 1}` : `Encoder ${i - 4}`,
}));

export interface WorldTiming {
  /** Job duration of a fiscal document on a simulated printer. */
  fiscalMs: number;
  /** Job duration of a whole key command (all cards) on a simulated encoder. */
  keysMs: number;
}

/** The platform simulator's scenario for one benchmark phase. */
export function benchScenario(
  timing: WorldTiming,
  rateLimit: { requests: number; windowSeconds: number },
): ScenarioInput {
  return {
    name: 'bench',
    seed: 7_070_707,
    platform: { ...BENCH_TOKENS, rateLimit, otherEventRate: 0 },
    enterprises: [{ id: 'b0e0e000-0000-4000-8000-000000000000', name: 'Hotel Bench' }],
    devices: BENCH_DEVICES.map((d, i) =>
      d.type === 'FiscalMachine'
        ? {
            id: d.id,
            type: 'FiscalMachine' as const,
            name: d.name,
            apiUrl: 'http://127.0.0.1:1',
            serialNumber: `99BENCH${String(i + 1).padStart(4, '0')}`,
            settings: { sim: { outcome: 'ok', durationMs: timing.fiscalMs } },
          }
        : {
            id: d.id,
            type: 'KeyCutter' as const,
            name: d.name,
            keyCutterId: String(i + 1),
            settings: { sim: { outcome: 'ok', durationMs: timing.keysMs } },
          },
    ),
    reservations: { generate: 20 },
    generator: { autostart: false, rate: 0 },
  };
}

/** The agent's `devices:` block for the bench devices (simulated drivers; `agents.ts` adds the ledgers). */
export function benchDeviceConfigs() {
  return BENCH_DEVICES.map((d) => ({
    id: d.id,
    name: d.name,
    type: d.type,
    driver: d.type === 'FiscalMachine' ? 'sim-fiscal' : 'sim-encoder',
    // The per-command directive decides the duration; jitter 0 keeps both agents on equal timings.
    options: { durationMs: 0, jitterMs: 0 },
  }));
}

/**
 * Creates the `n`-th command of the bench's fixed rotation: device `n mod 10`; fiscal devices get
 * fpmate payload receipts (no extra reads), encoders one key card. The floor of "three updates
 * per command plus page reads" is therefore the right floor for this mix.
 */
export function createBenchCommand(sim: PlatformSimulator, n: number): CommandView {
  const device = BENCH_DEVICES[n % BENCH_DEVICES.length] as BenchDevice;
  return device.type === 'FiscalMachine'
    ? sim.createFiscalPayload({ deviceId: device.id, envelope: 'soap' })
    : sim.createKeys({ deviceId: device.id, keyCount: 1 });
}
