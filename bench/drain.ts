import type { CommandView, PlatformSimulator, ScenarioInput } from '../src/platform-simulator/index.js';
import type { AgentSetup, Contestant } from './agents.js';
import { drainCurve } from './histories.js';
import { clockTicksPerSecond, cpuTicks } from './proc.js';
import { requestsByOperation, startBenchPlatform, terminalCount } from './sim.js';
import { sleep, slidingWindowFloor } from './stats.js';

/** The devices and commands of one drain: the simulated world or the Epson receipts world. */
export interface DrainWorld {
  scenario(rateLimit: { requests: number; windowSeconds: number }): ScenarioInput;
  /** The agent's `devices:` block. */
  devices: AgentSetup['devices'];
  /** Creates the `n`-th command. */
  create(sim: PlatformSimulator, n: number): CommandView;
  /** Device time per job (both contestants take it: simulated drivers, printer simulators). */
  jobMs: number;
  /** The baseline sleeps `jobMs` per command (the commands carry no simulated duration). */
  naiveSleepsJobMs: boolean;
  /** Requests the devices have answered so far (printer simulators), when the world can count them. */
  deviceRequests?(): number;
}

export interface DrainOptions {
  world: DrainWorld;
  commands: number;
  /** The platform's limit and the agents' budget: `requests` per `windowSeconds`. */
  rateLimit: { requests: number; windowSeconds: number };
  /** Our agent: the WebSocket on (polls at the safety-net period) or off (polling only). */
  websocket: boolean;
  /** Poll interval of both agents. */
  pollMs: number;
  latencyMs: number;
  timeoutMs: number;
}

export interface DrainResult {
  commands: number;
  finished: number;
  /** First creation → last terminal state, ms (simulator clock). */
  wallMs: number;
  /** First creation → the first command terminal, ms: how long the front desk waits for anything. */
  firstTerminalMs: number;
  /**
   * CPU time the contestant's process used from the backlog's creation to its end (utime + stime):
   * near the wall time, the drain was bound by the CPU the machine gave it, not by the devices or
   * the window.
   */
  cpuMs: number;
  /** Command items `fiscalMachineCommands/getAll` answered with, per command (issue 26.2). */
  itemsReadPerCommand: number;
  /** Device requests per command during the drain (worlds that count them; the baseline drives none). */
  deviceRequestsPerCommand?: number;
  requests: number;
  requestsPerCommand: number;
  byOperation: Record<string, Record<string, number>>;
  rateLimited: number;
  /** Three updates per command plus one page read per 1,000 commands. */
  floorRequests: number;
  /**
   * The sliding window's floor for `floorRequests` (request k no earlier than request k − limit
   * plus one window), counting what the contestant had sent in the window before the backlog.
   */
  windowFloorMs: number;
  /** The devices' floor: the busiest device's jobs back to back. */
  deviceFloorMs: number;
  /** [seconds since the backlog was created, commands terminal]. */
  curve: Array<[number, number]>;
  /** The sliding-window floor as a curve of commands terminal (three requests each). */
  windowFloorCurve: Array<[number, number]>;
}

/**
 * Backlog drain: the contestant runs idle, then `commands` are created at once over the world's
 * devices, and the phase ends when every one is terminal. Requests are the simulator's counters
 * over exactly that span (idle polls during the drain included: they cost budget too).
 */
export async function measureDrain(
  make: (setup: AgentSetup) => Contestant,
  options: DrainOptions,
): Promise<DrainResult> {
  const { world, rateLimit } = options;
  const sim = await startBenchPlatform({ scenario: world.scenario(rateLimit), latencyMs: options.latencyMs });
  const contestant = make({
    url: sim.url,
    wsUrl: sim.wsUrl,
    websocket: options.websocket,
    rateLimit,
    pollMs: options.pollMs,
    safetyNetMs: Math.max(1000, options.pollMs * 30),
    devices: world.devices,
    ...(world.naiveSleepsJobMs ? { naiveJobMs: world.jobMs } : {}),
  });
  try {
    await contestant.start();
    // Let start-up traffic leave the window; what idle polling keeps in it counts in the floor.
    await sleep(rateLimit.windowSeconds * 1000 + 500);
    await warmUp(sim, world, rateLimit.windowSeconds * 1000 + 500);
    const done0 = terminalCount(sim);
    const before = sim.counters();
    const ticks0 = cpuTicks(contestant.pid);
    const device0 = world.deviceRequests?.();
    const startMs = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < options.commands; i++) ids.push(world.create(sim, i).id);
    const deadline = performance.now() + options.timeoutMs;
    while (terminalCount(sim) - done0 < ids.length && performance.now() < deadline) await sleep(50);
    const after = sim.counters();
    const cpuMs = ((cpuTicks(contestant.pid) - ticks0) / clockTicksPerSecond()) * 1000;
    const device1 = world.deviceRequests?.();
    const curve = drainCurve(sim, ids, startMs);
    if (process.env.BENCH_TIMELINE === '1') printTimeline(sim, ids, startMs);
    const requests = after.requests.total - before.requests.total;
    const floorRequests = 3 * options.commands + Math.ceil(options.commands / 1000);
    const floor = slidingWindowFloor(
      sim.requestLog().map((r) => r.at),
      startMs,
      floorRequests,
      rateLimit.requests,
      rateLimit.windowSeconds * 1000,
    );
    const devices = world.devices.length;
    return {
      commands: options.commands,
      finished: curve.length,
      wallMs: (curve.at(-1)?.[0] ?? Number.NaN) * 1000,
      firstTerminalMs: (curve[0]?.[0] ?? Number.NaN) * 1000,
      cpuMs,
      itemsReadPerCommand: (after.fiscalItemsListed - before.fiscalItemsListed) / options.commands,
      ...(device0 !== undefined && device1 !== undefined
        ? { deviceRequestsPerCommand: (device1 - device0) / options.commands }
        : {}),
      requests,
      requestsPerCommand: requests / options.commands,
      byOperation: requestsByOperation(before, after),
      rateLimited: after.rateLimited - before.rateLimited,
      floorRequests,
      windowFloorMs: floor.floorMs,
      deviceFloorMs: Math.ceil(options.commands / devices) * world.jobMs,
      curve,
      windowFloorCurve: floorCurve(floor.times, floorRequests - 3 * options.commands),
    };
  } finally {
    await contestant.stop();
    await sim.close();
  }
}

/** Commands terminal at the floor: each needs three requests, after the page reads. */
function floorCurve(times: readonly number[], pages: number): Array<[number, number]> {
  const points: Array<[number, number]> = [[0, 0]];
  let done = 0;
  times.forEach((ms, k) => {
    const now = Math.max(0, Math.floor((k + 1 - pages) / 3));
    if (now > done) {
      points.push([ms / 1000, done], [ms / 1000, now]);
      done = now;
    }
  });
  return points;
}

/**
 * `BENCH_WARMUP=N`: before the measured backlog, N commands are drained and the window left to
 * empty, so the figures are a process that has run (its code compiled by V8's optimiser, its
 * caches filled), as a desk PC's agent is after its first hour, and not a fresh start. Off by
 * default: the table's figures are the first burst after a start.
 */
async function warmUp(sim: PlatformSimulator, world: DrainWorld, settleMs: number): Promise<void> {
  const count = Number(process.env.BENCH_WARMUP ?? 0);
  if (!(count > 0)) return;
  const done0 = terminalCount(sim);
  for (let i = 0; i < count; i++) world.create(sim, i);
  while (terminalCount(sim) - done0 < count) await sleep(50);
  await sleep(settleMs);
}

/**
 * `BENCH_TIMELINE=1`: how the drain began and ended, on stderr, in ms since the backlog was created
 * (simulator clock): the first requests the platform saw, the first commands' histories, and when
 * the n-th command became terminal. Where a drain loses time at its start (the first poll, the
 * intake of the pages, the first answers) shows here, not in the totals.
 */
function printTimeline(sim: PlatformSimulator, ids: readonly string[], startMs: number): void {
  const out = (line: string) => process.stderr.write(`timeline ${line}\n`);
  for (const r of sim
    .requestLog()
    .filter((e) => e.at >= startMs)
    .slice(0, 12))
    out(`request +${r.at - startMs} ms ${r.operation} ${r.status}`);
  for (const id of ids.slice(0, 4)) {
    const steps = sim.history(id).map((e) => `${e.state} +${Date.parse(e.at) - startMs}`);
    out(`command ${id.slice(0, 8)}: ${steps.join(', ')}`);
  }
  const ends = ids.map((id) => Date.parse(sim.history(id).at(-1)?.at ?? '') - startMs).sort((a, b) => a - b);
  const marks = [0, 9, 49, 99, 149, 199, 249, ends.length - 1].filter((i) => i < ends.length);
  out(`n-th terminal: ${marks.map((i) => `${i + 1}: +${ends[i]} ms`).join(', ')}`);
}
