import { setTimeout as sleep } from 'node:timers/promises';
import type { ContestantFactory } from './agents.js';
import { startBenchPlatform } from './sim.js';
import { benchDeviceConfigs, benchScenario, createBenchCommand } from './world.js';

/**
 * Issue 26.1's crash loop, in the installed form: our agent is killed with SIGKILL five times
 * within about ten seconds (as systemd restarts a crashing unit) and started again on the same
 * journal, against the simulator at the platform's real limit (200 requests / 30 s) with a
 * backlog waiting. Before the second kill the platform answers one request with a forced 429
 * (`Retry-After: 5`), so a later start begins inside a running `Retry-After`. Counted on the
 * simulator's request log: 429 answers the window earned (not the forced one), and requests that
 * arrived while a `Retry-After` ran, told apart into those from the process that got the 429 and
 * were sent before it arrived (on the wire: they arrive within the round trip) and the others.
 */

export interface CrashLoopResult {
  kills: number;
  spanMs: number;
  requests: number;
  /** 429 answers of the sliding window (the forced one left out). */
  windowRateLimited: number;
  forcedRateLimited: number;
  /** Requests that arrived while a Retry-After ran, more than `onWireMs` after its 429. */
  insideRetryAfter: number;
  /** … and within `onWireMs` of it: requests that were already on the wire. */
  onWire: number;
  /** Most requests in any 30 s window, as the platform counted them. */
  maxInWindow: number;
  /** Each request inside a Retry-After: ms after its 429, and whether a start came in between. */
  inside: Array<{ afterMs: number; newProcess: boolean }>;
}

const WINDOW_MS = 30_000;

export async function measureCrashLoop(
  make: ContestantFactory,
  options: { commands: number },
): Promise<CrashLoopResult> {
  const rateLimit = { requests: 200, windowSeconds: 30 };
  const sim = await startBenchPlatform({
    scenario: benchScenario({ fiscalMs: 50, keysMs: 50 }, rateLimit),
    latencyMs: 5,
  });
  const agent = make({
    url: sim.url,
    wsUrl: sim.wsUrl,
    websocket: false,
    rateLimit,
    pollMs: 500,
    safetyNetMs: 15_000,
    devices: benchDeviceConfigs(),
  });
  const kill = agent.kill?.bind(agent);
  if (!kill) throw new Error(`${agent.name} cannot be killed`);
  try {
    for (let i = 0; i < options.commands; i++) createBenchCommand(sim, i);
    const t0 = Date.now();
    let kills = 0;
    const starts: number[] = [];
    while (kills < 5) {
      starts.push(Date.now());
      await agent.start();
      if (kills === 1) sim.setFaults({ rateLimitBurst: { next: 1, retryAfterSeconds: 5 } });
      await sleep(kills === 1 ? 600 : 300);
      await kill();
      kills++;
    }
    const spanMs = Date.now() - t0;
    starts.push(Date.now());
    await agent.start();
    await sleep(WINDOW_MS + 5000);
    await agent.stop();
    const log = sim.requestLog().filter((r) => r.at >= t0);
    let windowRateLimited = 0;
    let forcedRateLimited = 0;
    let insideRetryAfter = 0;
    let onWire = 0;
    const waits: Array<{ from: number; until: number }> = [];
    for (const entry of log) {
      if (entry.status !== 429) continue;
      if (entry.fault === 'rate-limit-burst') forcedRateLimited++;
      else windowRateLimited++;
      waits.push({ from: entry.at, until: entry.at + (entry.retryAfterSeconds ?? 0) * 1000 });
    }
    const onWireMs = 50;
    const inside: CrashLoopResult['inside'] = [];
    for (const entry of log) {
      const wait = waits.find((w) => entry.at > w.from && entry.at < w.until);
      if (!wait) continue;
      const newProcess = starts.some((s) => s > wait.from && s < entry.at);
      inside.push({ afterMs: entry.at - wait.from, newProcess });
      if (entry.at - wait.from <= onWireMs && !newProcess) onWire++;
      else insideRetryAfter++;
    }
    const times = log.filter((r) => r.status !== 429).map((r) => r.at);
    let maxInWindow = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] as number) - (times[j] as number) >= WINDOW_MS) j++;
      maxInWindow = Math.max(maxInWindow, i - j + 1);
    }
    return {
      kills,
      spanMs,
      requests: log.length,
      windowRateLimited,
      forcedRateLimited,
      insideRetryAfter,
      onWire,
      maxInWindow,
      inside,
    };
  } finally {
    await sim.close();
  }
}

/**
 * `npx tsx bench/crash-loop.ts [--commands=300]`: builds the agent as installed (`build.ts`) and
 * prints the crash loop's figures as JSON. Not part of `npm run bench`'s table.
 */
async function main(): Promise<void> {
  const { builtAgent } = await import('./agents.js');
  const { buildForBench } = await import('./build.js');
  const commands = Number(process.argv.find((a) => a.startsWith('--commands='))?.slice(11) ?? 300);
  const build = await buildForBench();
  const result = await measureCrashLoop(builtAgent(build.dir), { commands });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

if (process.argv[1]?.endsWith('crash-loop.ts')) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
