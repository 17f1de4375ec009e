import type { Rng } from '../../src/simulator/rng.js';
import type { DaemonHandle } from '../helpers/daemon.js';
import type { MangleMode } from './reply-mangler.js';
import type { Rig } from './rig.js';

/**
 * What the campaign does to the world while commands flow: a fixed timeline of faults (platform,
 * WebSocket, printer, encoder, garbage answers) and a loop of kill -9 at seeded random points,
 * each followed by a restart — some land while the daemon is still starting up and recovering.
 * Everything done is logged with its time, for failure messages.
 */

export interface ChaosEvent {
  at: number;
  what: string;
}

export class ChaosLog {
  readonly events: ChaosEvent[] = [];
  constructor(readonly t0: number) {}
  note(what: string): void {
    this.events.push({ at: Date.now(), what });
  }
  /** "+12.3 s kill -9 #4" lines. */
  toString(): string {
    return this.events.map((e) => `+${((e.at - this.t0) / 1000).toFixed(1)} s ${e.what}`).join('\n');
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Step {
  atMs: number;
  what: string;
  run: () => void | Promise<void>;
}

/** The fault timeline, in ms from the start of the run; everything is off again at 75 s. */
export function faultTimeline(rig: Rig): Step[] {
  const { platform, printer, mangler, salto } = rig;
  const answers = (mode: MangleMode) => () => {
    mangler.mode = mode;
  };
  let unplugMidJob: (() => void) | undefined;
  const garbageScript = () =>
    salto.sim.enqueue(
      'garbage',
      'bad-lrc',
      'split',
      'nak-then-ack',
      'garbage',
      'busy',
      'bad-lrc',
      'garbage',
      'split',
      { reply: 'EG', text: 'lock server glitch' },
      'garbage',
      'bad-lrc',
    );
  return [
    { atMs: 2000, what: 'printer: paper out', run: () => printer.setFault('paperOut', true) },
    { atMs: 7000, what: 'printer: paper back', run: () => printer.setFault('paperOut', false) },
    {
      atMs: 8000,
      what: 'WebSocket flapping (drop every 1.2 s)',
      run: () => void platform.setFaults({ websocket: { refuse: false, dropEverySeconds: 1.2 } }),
    },
    { atMs: 10_000, what: 'printer: busy', run: () => printer.setFault('busy', true) },
    { atMs: 14_000, what: 'printer: not busy', run: () => printer.setFault('busy', false) },
    { atMs: 16_000, what: 'WebSocket steady', run: () => void platform.setFaults({ websocket: {} }) },
    {
      atMs: 18_000,
      what: 'platform outage (503 on everything, WebSocket refused)',
      run: () => {
        platform.setFaults({
          serverErrors: { rate: 1, status: 503 },
          websocket: { refuse: true, dropEverySeconds: null },
        });
        platform.dropWebSockets();
      },
    },
    {
      atMs: 25_000,
      what: 'platform back',
      run: () => void platform.setFaults({ serverErrors: {}, websocket: {} }),
    },
    { atMs: 27_000, what: 'encoder unplugged', run: () => salto.unplug() },
    { atMs: 33_000, what: 'encoder plugged back', run: () => salto.plug() },
    {
      atMs: 35_000,
      what: 'printer: answer dropped after printing',
      run: () => printer.setFault('dropAfterPrint', true),
    },
    { atMs: 40_000, what: 'printer: answers again', run: () => printer.setFault('dropAfterPrint', false) },
    {
      atMs: 41_000,
      what: '429 storm (next 6 requests, Retry-After 2)',
      run: () => void platform.setFaults({ rateLimitBurst: { next: 6, retryAfterSeconds: 2 } }),
    },
    {
      atMs: 44_000,
      what: 'encoder: garbage, bad LRC, split and busy replies',
      run: () => void garbageScript(),
    },
    {
      atMs: 46_000,
      what: 'printer answers garbage after printing',
      run: answers('garbage-after'),
    },
    {
      atMs: 50_000,
      what: 'printer answers cut in half after printing',
      run: answers('truncated-after'),
    },
    {
      atMs: 53_000,
      what: 'printer answers intact; printer refuses connections',
      run: async () => {
        mangler.mode = 'pass';
        await Promise.all([printer.setFault('refused', true), mangler.setRefused(true)]);
      },
    },
    {
      atMs: 57_000,
      what: 'printer accepts connections',
      run: async () => {
        await Promise.all([printer.setFault('refused', false), mangler.setRefused(false)]);
      },
    },
    {
      atMs: 58_000,
      what: 'encoder unplugged mid-card on every third card (plugged back 1.5 s later)',
      run: () => {
        let n = 0;
        unplugMidJob = salto.sim.onRequest(() => {
          if (++n % 3 !== 0) return;
          void salto.unplug().then(() => sleep(1500).then(() => salto.plug()));
        });
      },
    },
    {
      atMs: 60_000,
      what: 'platform: 30 % connection resets, 10 % hangs',
      run: () => void platform.setFaults({ resets: { rate: 0.3 }, hangs: { rate: 0.1 } }),
    },
    {
      atMs: 65_000,
      what: 'platform: no resets or hangs',
      run: () => void platform.setFaults({ resets: {}, hangs: {} }),
    },
    {
      atMs: 66_000,
      what: '429 storm (next 4 requests, Retry-After 3)',
      run: () => void platform.setFaults({ rateLimitBurst: { next: 4, retryAfterSeconds: 3 } }),
    },
    { atMs: 67_000, what: 'encoder: no more mid-card unplugs', run: () => unplugMidJob?.() },
    {
      atMs: 68_000,
      what: 'WebSocket flapping (drop every 0.8 s)',
      run: () => void platform.setFaults({ websocket: { refuse: false, dropEverySeconds: 0.8 } }),
    },
    {
      atMs: 72_000,
      what: 'printer answers garbage without printing',
      run: answers('garbage-instead'),
    },
    {
      atMs: 75_000,
      what: 'all faults off',
      run: async () => {
        mangler.mode = 'pass';
        platform.setFaults({ websocket: {}, serverErrors: {}, resets: {}, hangs: {} });
        salto.sim.defaultBehaviour = 'normal';
        await salto.plug();
      },
    },
  ];
}

/** Plays `steps` against the wall clock from `log.t0`. */
export async function playTimeline(steps: readonly Step[], log: ChaosLog): Promise<void> {
  for (const step of steps) {
    const wait = log.t0 + step.atMs - Date.now();
    if (wait > 0) await sleep(wait);
    log.note(step.what);
    await step.run();
  }
}

/**
 * Spans (ms from the start) in which no kill lands, so the daemon is up when a platform outage or
 * a 429 storm begins and really lives through it.
 */
export const QUIET_SPANS: ReadonlyArray<readonly [number, number]> = [
  [16_500, 21_000],
  [40_000, 44_500],
  [65_000, 69_500],
];

/**
 * kill -9 at seeded random points: start the daemon, wait 0.4–3.5 s (often before it is even
 * ready), kill it, again — at least `minKills` times and until `keepGoing()` turns false; never
 * inside a quiet span. Ends with the daemon started and ready. Returns when each kill happened.
 */
export async function killLoop(
  daemon: DaemonHandle,
  rng: Rng,
  options: { minKills: number; keepGoing: () => boolean; quiet: ReadonlyArray<readonly [number, number]> },
  log: ChaosLog,
): Promise<number[]> {
  const killedAt: number[] = [];
  const quietFor = () => {
    const elapsed = Date.now() - log.t0;
    const span = options.quiet.find(([from, to]) => elapsed >= from && elapsed < to);
    return span ? span[1] - elapsed : 0;
  };
  while (killedAt.length < options.minKills || options.keepGoing()) {
    const starting = daemon.start().catch(() => undefined);
    await sleep(400 + rng.next() * 3100);
    for (let wait = quietFor(); wait > 0; wait = quietFor()) await sleep(wait);
    if (daemon.running) {
      killedAt.push(Date.now());
      log.note(`kill -9 #${killedAt.length}${daemon.statusUrl() ? '' : ' (still starting)'}`);
      await daemon.kill();
    }
    await starting;
  }
  log.note('final start');
  await daemon.start();
  return killedAt;
}
