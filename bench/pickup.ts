import { seededRandom } from '../src/random.js';
import type { AgentSetup, Contestant } from './agents.js';
import { pickupMs } from './histories.js';
import { rssBytes } from './proc.js';
import { startBenchPlatform, terminalCount } from './sim.js';
import { percentile, sleep } from './stats.js';
import { benchDeviceConfigs, benchScenario, createBenchCommand } from './world.js';

export interface PickupOptions {
  websocket: boolean;
  /** Commands created, one at a time. */
  count: number;
  /** Gap between two creations, uniform in [minGapMs, maxGapMs] from a seeded PRNG. */
  minGapMs: number;
  maxGapMs: number;
  latencyMs: number;
  timeoutMs: number;
}

export interface PickupResult {
  samples: number[];
  p50: number;
  p99: number;
  max: number;
  /** Commands that never showed Received (they count as a miss, not as a sample). */
  missing: number;
  /** VmRSS of the contestant at the end (it ran under tsx here). */
  rssBytes: number;
}

/**
 * Pickup latency: created → Received on the platform, at the real default budget (200/30 s)
 * with a simulated round trip, commands arriving one at a time at random (seeded) gaps slow
 * enough to stay inside the budget, so the figure is the discovery path and nothing else.
 */
export async function measurePickup(
  make: (setup: AgentSetup) => Contestant,
  options: PickupOptions,
): Promise<PickupResult> {
  const rateLimit = { requests: 200, windowSeconds: 30 };
  const sim = await startBenchPlatform({
    scenario: benchScenario({ fiscalMs: 50, keysMs: 50 }, rateLimit),
    latencyMs: options.latencyMs,
  });
  const contestant = make({
    url: sim.url,
    wsUrl: sim.wsUrl,
    websocket: options.websocket,
    rateLimit,
    pollMs: 2000,
    safetyNetMs: 60_000,
    devices: benchDeviceConfigs(),
  });
  try {
    await contestant.start();
    await sleep(3000);
    const random = seededRandom(options.websocket ? 11 : 12);
    const ids: string[] = [];
    for (let i = 0; i < options.count; i++) {
      ids.push(createBenchCommand(sim, i).id);
      await sleep(options.minGapMs + random() * (options.maxGapMs - options.minGapMs));
    }
    const deadline = performance.now() + options.timeoutMs;
    while (terminalCount(sim) < ids.length && performance.now() < deadline) await sleep(200);
    const latencies = ids.map((id) => pickupMs(sim.history(id)));
    const samples = latencies.filter((ms): ms is number => ms !== undefined);
    return {
      samples,
      p50: percentile(samples, 50),
      p99: percentile(samples, 99),
      max: Math.max(...samples),
      missing: latencies.length - samples.length,
      rssBytes: rssBytes(contestant.pid),
    };
  } finally {
    await contestant.stop();
    await sim.close();
  }
}
