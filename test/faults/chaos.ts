import { Mutex } from '../../src/mutex.js';
import type { Rng } from '../../src/platform-simulator/rng.js';
import type { DaemonHandle } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';

/**
 * The campaign's kill -9 loop and what coordinates it with the acts: every kill lands on an event
 * of the run (the daemon's k-th line while it starts, or the k-th update it got through to the
 * platform since it started), never at a time; acts that must run with the daemon alive hold the
 * quiet lock. Everything done is logged, for failure messages.
 */

export interface ChaosEvent {
  at: number;
  what: string;
}

/** What the campaign did, in order, with the time (for the story in a failure message only). */
export class ChaosLog {
  readonly events: ChaosEvent[] = [];
  constructor(readonly t0: number) {}
  note(what: string): void {
    this.events.push({ at: Date.now(), what });
    // FAULT_TRACE=1 tells the story as it happens (to follow a long run).
    if (process.env.FAULT_TRACE) console.info(`+${((Date.now() - this.t0) / 1000).toFixed(1)} s ${what}`);
  }
  /** "+12.3 s kill -9 #4" lines. */
  toString(): string {
    return this.events.map((e) => `+${((e.at - this.t0) / 1000).toFixed(1)} s ${e.what}`).join('\n');
  }
}

/**
 * One holder at a time: a quiet act (outage, 429 storm) holds it while it runs, and each kill
 * takes it for the kill itself, so no kill lands inside a quiet act.
 */
export class QuietLock {
  private readonly turns = new Mutex();

  hold<T>(work: () => Promise<T>): Promise<T> {
    return this.turns.run(work);
  }
}

/**
 * Where a kill lands: when the run as a whole has finished `n` commands (the work is spread over
 * the kills, so the agent also gets work done between them), or at the restarted daemon's `n`-th
 * log line (while it starts up and recovers, right after the previous kill).
 */
export type KillPoint = { kind: 'finished'; n: number } | { kind: 'line'; n: number };

/**
 * A seeded plan of `kills` kills: about a fifth hit the next start-up or recovery, the rest land
 * at distinct amounts of finished work, spread over `[from, to]` commands.
 */
export function killPlan(rng: Rng, kills: number, from: number, to: number): KillPoint[] {
  const startups = Math.round(kills / 5);
  const marks = new Set<number>();
  while (marks.size < kills - startups) marks.add(rng.int(from, to));
  const plan: KillPoint[] = [...marks].sort((a, b) => a - b).map((n) => ({ kind: 'finished', n }));
  for (let i = 0; i < startups; i++) {
    // Right after a work kill, never first: the daemon is then restarting with work to recover.
    const after = rng.int(0, plan.length - 1);
    plan.splice(after + 1, 0, { kind: 'line', n: rng.int(1, 4) });
  }
  return plan;
}

function describePoint(p: KillPoint): string {
  return p.kind === 'line' ? `at its log line #${p.n}` : `once ${p.n} commands have finished`;
}

export interface KillLoopOptions {
  /** Commands the run has finished so far. */
  finished: () => number;
  lock: QuietLock;
  /** The run was given up (a failure elsewhere): stop at once, without the final start. */
  abandoned: () => boolean;
}

/**
 * Plays the kill plan: starts the daemon, and at each point kills it (-9) and starts it again,
 * the next kill perhaps landing while it starts. Ends with the daemon started and ready. Returns
 * when each kill happened.
 */
export async function killLoop(
  daemon: DaemonHandle,
  plan: readonly KillPoint[],
  options: KillLoopOptions,
  log: ChaosLog,
): Promise<number[]> {
  const killedAt: number[] = [];
  let lines = 0;
  const stopCounting = daemon.onLine(() => {
    lines++;
  });
  try {
    for (const point of plan) {
      if (options.abandoned()) return killedAt;
      lines = 0;
      const starting = daemon.start().catch(() => undefined);
      await eventually(
        () =>
          `kill point ${killedAt.length + 1} of ${plan.length}: ${describePoint(point)} (${options.finished()} finished)`,
        () =>
          options.abandoned() ||
          !daemon.running ||
          (point.kind === 'line' ? lines >= point.n : options.finished() >= point.n),
        { timeoutMs: 240_000, intervalMs: 5 },
      );
      await options.lock.hold(async () => {
        if (!daemon.running || options.abandoned()) return;
        killedAt.push(Date.now());
        log.note(
          `kill -9 #${killedAt.length} ${describePoint(point)}${daemon.statusUrl() ? '' : ' (still starting)'}`,
        );
        await daemon.kill();
      });
      await starting;
    }
  } finally {
    stopCounting();
  }
  if (options.abandoned()) return killedAt;
  log.note('final start');
  await daemon.start();
  return killedAt;
}

/** Waits until the daemon is up and ready (for a quiet act, which must not start on a dead one). */
export async function daemonReady(daemon: DaemonHandle): Promise<void> {
  await eventually('the daemon to be up and ready', () => daemon.running && daemon.statusUrl() !== '', {
    timeoutMs: 240_000,
    intervalMs: 20,
  });
}
