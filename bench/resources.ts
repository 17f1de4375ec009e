import type { PlatformSimulator } from '../src/platform-simulator/index.js';
import type { AgentSetup, Contestant, ContestantFactory } from './agents.js';
import { collectGarbage } from './inspector.js';
import { clockTicksPerSecond, cpuTicks, rssByMapping, rssBytes } from './proc.js';
import { type RealDevices, startRealDevices } from './real-devices.js';
import { startBenchPlatform, terminalCount } from './sim.js';
import { sleep } from './stats.js';

export interface ResourceOptions {
  /** Time after start before anything is measured (startup garbage, first polls). */
  warmMs: number;
  /** Length of the idle CPU measurement (the target is for 60 s). */
  idleMs: number;
  /** Receipts created at once for the burst (the target is for 1,000). */
  burst: number;
  /** Quiet time after the last receipt before the second memory reading. */
  settleMs: number;
  /** Gives up on the burst when it has not finished after this long. */
  loadTimeoutMs: number;
}

export interface ResourceResult {
  /** VmRSS at the end of the idle period (plain process, no inspector). */
  idleRssBytes: number;
  /** CPU used while idle, percent of one core. */
  idleCpuPercent: number;
  /** Platform requests the contestant made while idle. */
  idleRequests: number;
  /** Where the idle VmRSS lies, by mapping (see `proc.ts` `rssByMapping`). */
  idleMappings?: Array<{ what: string; bytes: number }>;
  /** Second process (with the inspector): VmRSS before the burst, its peak, and after it plus the settle time. */
  baseRssBytes: number;
  peakRssBytes: number;
  loadedRssBytes: number;
  /** After a forced full GC: live heap and VmRSS, before and after the burst. */
  afterGc: { idleHeapBytes: number; idleRssBytes: number; loadedHeapBytes: number; loadedRssBytes: number };
  /** Receipts that reached a terminal state (equals `burst` unless the burst timed out). */
  finished: number;
  loadWallMs: number;
}

/** An ample budget and no added latency: the point is the agent's own footprint. */
async function withPlatform<T>(
  make: ContestantFactory,
  run: (sim: PlatformSimulator, contestant: Contestant, world: RealDevices) => Promise<T>,
): Promise<T> {
  const world = await startRealDevices();
  const rateLimit = { requests: 1_000_000, windowSeconds: 30 };
  const sim = await startBenchPlatform({ scenario: world.scenario(rateLimit), latencyMs: 0 });
  const setup: AgentSetup = {
    url: sim.url,
    wsUrl: sim.wsUrl,
    websocket: true,
    rateLimit,
    pollMs: 2000,
    safetyNetMs: 60_000,
    devices: world.devices,
    naiveJobMs: 0,
  };
  const contestant = make(setup);
  try {
    await contestant.start();
    return await run(sim, contestant, world);
  } finally {
    await contestant.stop();
    await sim.close();
    await world.close();
  }
}

export type IdleResult = Pick<
  ResourceResult,
  'idleRssBytes' | 'idleCpuPercent' | 'idleRequests' | 'idleMappings'
>;
export type BurstResult = Omit<ResourceResult, keyof IdleResult>;

/**
 * Idle CPU and memory of a plain process (as installed): `warmMs` of warm-up, `idleMs` idle —
 * CPU from /proc utime+stime — then VmRSS and where it lies. Two contestants may idle at the
 * same time: each one's CPU figure counts only its own process.
 */
export async function measureIdle(plain: ContestantFactory, options: ResourceOptions): Promise<IdleResult> {
  return withPlatform(plain, async (sim, contestant) => {
    await sleep(options.warmMs);
    const requests0 = sim.counters().requests.total;
    const ticks0 = cpuTicks(contestant.pid);
    const t0 = performance.now();
    await sleep(options.idleMs);
    const ticks1 = cpuTicks(contestant.pid);
    const seconds = (performance.now() - t0) / 1000;
    return {
      idleRssBytes: rssBytes(contestant.pid),
      idleMappings: rssByMapping(contestant.pid),
      idleCpuPercent: ((ticks1 - ticks0) / clockTicksPerSecond() / seconds) * 100,
      idleRequests: sim.counters().requests.total - requests0,
    };
  });
}

/**
 * Memory through a burst, in a process started with `--inspect` (which costs a few MB, the same
 * before and after): VmRSS and a forced-GC reading after the warm-up, `burst` receipts created at
 * once and run to their end (VmRSS sampled meanwhile for the peak), the settle time, VmRSS and a
 * forced-GC reading again. The GC readings tell retained memory from garbage not yet returned.
 */
export async function measureBurst(
  inspected: ContestantFactory,
  options: ResourceOptions,
): Promise<BurstResult> {
  return withPlatform(inspected, async (sim, contestant, world) => {
    await sleep(options.warmMs);
    const baseRssBytes = rssBytes(contestant.pid);
    const before = await readAfterGc(contestant);
    const base = terminalCount(sim);
    const start = performance.now();
    for (let i = 0; i < options.burst; i++) world.createReceipt(sim, i);
    let peakRssBytes = rssBytes(contestant.pid);
    let finished = 0;
    while (finished < options.burst && performance.now() - start < options.loadTimeoutMs) {
      await sleep(100);
      finished = terminalCount(sim) - base;
      peakRssBytes = Math.max(peakRssBytes, rssBytes(contestant.pid));
    }
    const loadWallMs = performance.now() - start;
    await sleep(options.settleMs);
    const loadedRssBytes = rssBytes(contestant.pid);
    const after = await readAfterGc(contestant);
    return {
      baseRssBytes,
      peakRssBytes,
      loadedRssBytes,
      afterGc: {
        idleHeapBytes: before.heap,
        idleRssBytes: before.rss,
        loadedHeapBytes: after.heap,
        loadedRssBytes: after.rss,
      },
      finished,
      loadWallMs,
    };
  });
}

async function readAfterGc(contestant: Contestant): Promise<{ heap: number; rss: number }> {
  if (!contestant.inspector) throw new Error(`${contestant.name} was not started with the inspector`);
  const heap = await collectGarbage(contestant.inspector);
  await sleep(500);
  return { heap: heap.usedBytes, rss: rssBytes(contestant.pid) };
}
