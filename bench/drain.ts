import type { AgentSetup, Contestant } from './agents.js';
import { drainCurve } from './histories.js';
import { requestsByOperation, startBenchPlatform, terminalCount } from './sim.js';
import { budgetFloorMs, sleep } from './stats.js';
import { createBenchCommand } from './world.js';

export interface DrainOptions {
  commands: number;
  /** The platform's limit and the agents' budget: `requests` per `windowSeconds`. */
  rateLimit: { requests: number; windowSeconds: number };
  /** Poll interval of both agents (scaled with the window, so polls cost the same share). */
  pollMs: number;
  latencyMs: number;
  /** Simulated device time per job. */
  jobMs: number;
  timeoutMs: number;
}

export interface DrainResult {
  commands: number;
  finished: number;
  /** First creation → last terminal state, ms (simulator clock). */
  wallMs: number;
  /** First creation → the first command terminal, ms: how long the front desk waits for anything. */
  firstTerminalMs: number;
  requests: number;
  requestsPerCommand: number;
  byOperation: Record<string, Record<string, number>>;
  rateLimited: number;
  /** Three updates per command plus one page read per 1,000 commands. */
  floorRequests: number;
  floorMs: number;
  /** [seconds since the backlog was created, commands terminal]. */
  curve: Array<[number, number]>;
}

/**
 * Backlog drain: the contestant runs idle, then `commands` are created at once over the ten
 * devices, and the phase ends when every one is terminal. Requests are the simulator's counters
 * over exactly that span (idle polls during the drain included: they cost budget too).
 */
export async function measureDrain(
  make: (setup: AgentSetup) => Contestant,
  options: DrainOptions,
): Promise<DrainResult> {
  const sim = await startBenchPlatform({
    timing: { fiscalMs: options.jobMs, keysMs: options.jobMs },
    rateLimit: options.rateLimit,
    latencyMs: options.latencyMs,
  });
  const contestant = make({
    url: sim.url,
    wsUrl: sim.wsUrl,
    websocket: true,
    rateLimit: options.rateLimit,
    pollMs: options.pollMs,
    safetyNetMs: Math.max(1000, options.pollMs * 30),
  });
  try {
    await contestant.start();
    // Let start-up traffic leave the window, so the floor's "empty window" holds.
    await sleep(options.rateLimit.windowSeconds * 1000 + 500);
    const before = sim.counters();
    const startMs = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < options.commands; i++) ids.push(createBenchCommand(sim, i).id);
    const deadline = performance.now() + options.timeoutMs;
    while (terminalCount(sim) < ids.length && performance.now() < deadline) await sleep(100);
    const after = sim.counters();
    const curve = drainCurve(sim, ids, startMs);
    const requests = after.requests.total - before.requests.total;
    const floorRequests = 3 * options.commands + Math.ceil(options.commands / 1000);
    return {
      commands: options.commands,
      finished: curve.length,
      wallMs: (curve.at(-1)?.[0] ?? Number.NaN) * 1000,
      firstTerminalMs: (curve[0]?.[0] ?? Number.NaN) * 1000,
      requests,
      requestsPerCommand: requests / options.commands,
      byOperation: requestsByOperation(before, after),
      rateLimited: after.rateLimited - before.rateLimited,
      floorRequests,
      floorMs: budgetFloorMs(
        floorRequests,
        options.rateLimit.requests,
        options.rateLimit.windowSeconds * 1000,
      ),
      curve,
    };
  } finally {
    await contestant.stop();
    await sim.close();
  }
}
