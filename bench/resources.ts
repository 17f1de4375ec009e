import type { PlatformSimulator } from '../src/simulator/index.js';
import type { AgentSetup, Contestant, ContestantFactory } from './agents.js';
import { collectGarbage } from './inspector.js';
import { clockTicksPerSecond, cpuTicks, rssBytes } from './proc.js';
import { startBenchPlatform, terminalCount } from './sim.js';
import { sleep } from './stats.js';
import { createBenchCommand } from './world.js';

export interface ResourceOptions {
  /** Time after start before anything is measured (startup garbage, first polls). */
  warmMs: number;
  /** Length of the idle CPU measurement (the target is for 60 s). */
  idleMs: number;
  /** Commands pushed through before the second memory reading (the target is for 20,000). */
  commands: number;
  /** At most this many commands outstanding on the platform at once. */
  window: number;
  /** Quiet time after the last command before the second memory reading. */
  settleMs: number;
  /** Gives up on the load when it has not finished after this long. */
  loadTimeoutMs: number;
}

export interface ResourceResult {
  /** VmRSS at the end of the idle period (plain process, no inspector). */
  idleRssBytes: number;
  /** CPU used while idle, percent of one core. */
  idleCpuPercent: number;
  /** Platform requests the contestant made while idle. */
  idleRequests: number;
  /** Second process (with the inspector): VmRSS before the load and after it plus the settle time. */
  baseRssBytes: number;
  loadedRssBytes: number;
  /** After a forced full GC: live heap and VmRSS, before and after the load. */
  afterGc: { idleHeapBytes: number; idleRssBytes: number; loadedHeapBytes: number; loadedRssBytes: number };
  /** Commands that reached a terminal state (equals `commands` unless the load timed out). */
  finished: number;
  loadWallMs: number;
  /** Our agent: where its journal and the simulated devices' ledgers are (see `ledgerHeapBytes`). */
  dataDir?: string;
  /** Live heap the simulated devices' ledgers hold after the load (not the agent's own memory). */
  ledgerHeapBytes?: number;
}

/** An ample budget and no added latency: the point is the agent's own footprint. */
async function withPlatform<T>(
  make: ContestantFactory,
  run: (sim: PlatformSimulator, contestant: Contestant) => Promise<T>,
): Promise<T> {
  const sim = await startBenchPlatform({
    timing: { fiscalMs: 0, keysMs: 0 },
    rateLimit: { requests: 1_000_000, windowSeconds: 30 },
    latencyMs: 0,
  });
  const setup: AgentSetup = {
    url: sim.url,
    wsUrl: sim.wsUrl,
    websocket: true,
    rateLimit: { requests: 1_000_000, windowSeconds: 30 },
    pollMs: 2000,
    safetyNetMs: 60_000,
  };
  const contestant = make(setup);
  try {
    await contestant.start();
    return await run(sim, contestant);
  } finally {
    await contestant.stop();
    await sim.close();
  }
}

export type IdleResult = Pick<ResourceResult, 'idleRssBytes' | 'idleCpuPercent' | 'idleRequests'>;
export type GrowthResult = Omit<ResourceResult, keyof IdleResult>;

/**
 * Idle CPU and memory of a plain process (as installed): 5 s of warm-up, `idleMs` idle — CPU
 * from /proc utime+stime — then VmRSS. Two contestants may idle at the same time: each one's
 * CPU figure counts only its own process.
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
      idleCpuPercent: ((ticks1 - ticks0) / clockTicksPerSecond() / seconds) * 100,
      idleRequests: sim.counters().requests.total - requests0,
    };
  });
}

/**
 * Growth under load of a process started with `--inspect` (which costs a few MB, the same before
 * and after): VmRSS and a forced-GC reading after the warm-up, `commands` through a sliding
 * window, the settle time, VmRSS and a forced-GC reading again. The GC readings tell retained
 * memory from garbage not yet returned to the system.
 */
export async function measureGrowth(
  inspected: ContestantFactory,
  options: ResourceOptions,
): Promise<GrowthResult> {
  return withPlatform(inspected, async (sim, contestant) => {
    await sleep(options.warmMs);
    const baseRssBytes = rssBytes(contestant.pid);
    const before = await readAfterGc(contestant);
    const pushed = await pushCommands(sim, options);
    await sleep(options.settleMs);
    const loadedRssBytes = rssBytes(contestant.pid);
    const after = await readAfterGc(contestant);
    return {
      ...(contestant.dataDir ? { dataDir: contestant.dataDir } : {}),
      baseRssBytes,
      loadedRssBytes,
      afterGc: {
        idleHeapBytes: before.heap,
        idleRssBytes: before.rss,
        loadedHeapBytes: after.heap,
        loadedRssBytes: after.rss,
      },
      ...pushed,
    };
  });
}

async function readAfterGc(contestant: Contestant): Promise<{ heap: number; rss: number }> {
  if (!contestant.inspector) throw new Error(`${contestant.name} was not started with the inspector`);
  const heap = await collectGarbage(contestant.inspector);
  await sleep(500);
  return { heap: heap.usedBytes, rss: rssBytes(contestant.pid) };
}

async function pushCommands(
  sim: PlatformSimulator,
  options: ResourceOptions,
): Promise<{ finished: number; loadWallMs: number }> {
  const base = terminalCount(sim);
  const start = performance.now();
  let created = 0;
  let finished = 0;
  while (finished < options.commands && performance.now() - start < options.loadTimeoutMs) {
    finished = terminalCount(sim) - base;
    const room = Math.min(options.window - (created - finished), options.commands - created);
    for (let i = 0; i < room; i++) createBenchCommand(sim, created++);
    await sleep(100);
  }
  return { finished, loadWallMs: performance.now() - start };
}
