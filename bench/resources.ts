import type { PlatformSimulator } from '../src/simulator/index.js';
import type { AgentSetup, Contestant } from './agents.js';
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
  /** VmRSS at the end of the idle minute. */
  idleRssBytes: number;
  /** CPU used while idle, percent of one core. */
  idleCpuPercent: number;
  /** Platform requests the contestant made while idle. */
  idleRequests: number;
  /** VmRSS after the load and the settle time. */
  loadedRssBytes: number;
  /** After a forced full GC (through the inspector): live heap and VmRSS, idle and after the load. */
  afterGc?: { idleHeapBytes: number; idleRssBytes: number; loadedHeapBytes: number; loadedRssBytes: number };
  /** Commands that reached a terminal state (equals `commands` unless the load timed out). */
  finished: number;
  loadWallMs: number;
}

/**
 * Idle CPU and memory of one contestant against its own simulator with an ample budget and no
 * added latency (the point is the agent's own footprint, not the platform's speed): warm up,
 * idle for `idleMs` (CPU from /proc utime+stime), read VmRSS, then push `commands` through in a
 * sliding window, settle, read VmRSS again. When the contestant runs with the inspector, each
 * reading is followed by a forced full GC and a second reading (live heap, VmRSS), which tells
 * retained memory from garbage the collector had not returned yet.
 */
export async function measureResources(
  make: (setup: AgentSetup) => Contestant,
  options: ResourceOptions,
): Promise<ResourceResult> {
  const sim = await startBenchPlatform({
    timing: { fiscalMs: 0, keysMs: 0 },
    rateLimit: { requests: 1_000_000, windowSeconds: 30 },
    latencyMs: 0,
  });
  const contestant = make({
    url: sim.url,
    wsUrl: sim.wsUrl,
    websocket: true,
    rateLimit: { requests: 1_000_000, windowSeconds: 30 },
    pollMs: 2000,
    safetyNetMs: 60_000,
  });
  try {
    await contestant.start();
    await sleep(options.warmMs);
    const requests0 = sim.counters().requests.total;
    const ticks0 = cpuTicks(contestant.pid);
    const t0 = performance.now();
    await sleep(options.idleMs);
    const ticks1 = cpuTicks(contestant.pid);
    const idleRequests = sim.counters().requests.total - requests0;
    const idleSeconds = (performance.now() - t0) / 1000;
    const idleCpuPercent = ((ticks1 - ticks0) / clockTicksPerSecond() / idleSeconds) * 100;
    const idleRssBytes = rssBytes(contestant.pid);
    const idleGc = await readAfterGc(contestant);
    const load = await pushCommands(sim, options);
    await sleep(options.settleMs);
    const loadedRssBytes = rssBytes(contestant.pid);
    const loadedGc = await readAfterGc(contestant);
    const result: ResourceResult = { idleRssBytes, idleCpuPercent, idleRequests, loadedRssBytes, ...load };
    if (idleGc && loadedGc) {
      result.afterGc = {
        idleHeapBytes: idleGc.heap,
        idleRssBytes: idleGc.rss,
        loadedHeapBytes: loadedGc.heap,
        loadedRssBytes: loadedGc.rss,
      };
    }
    return result;
  } finally {
    await contestant.stop();
    await sim.close();
  }
}

async function readAfterGc(contestant: Contestant): Promise<{ heap: number; rss: number } | undefined> {
  if (!contestant.inspector) return undefined;
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
