import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { builtAgent, naiveAgent, ourAgent } from './agents.js';
import { type BenchBuild, buildForBench } from './build.js';
import { lineChartSvg } from './chart.js';
import { type DrainOptions, type DrainWorld, measureDrain } from './drain.js';
import { measureFootprint } from './footprint.js';
import { measurePickup } from './pickup.js';
import { machine } from './proc.js';
import {
  createReceipt,
  type ReceiptPrinters,
  receiptDeviceConfigs,
  receiptScenario,
  startReceiptPrinters,
} from './receipts.js';
import { type BenchResults, type DrainPhase, floorOf, rows, textTable } from './report.js';
import { measureBurst, measureIdle } from './resources.js';
import { chartFile, keptAnalysis, resultsMarkdown } from './results-md.js';
import { benchDeviceConfigs, benchScenario, createBenchCommand } from './world.js';

interface DrainSetup {
  world: DrainWorld;
  phase: Pick<DrainPhase, 'label' | 'floor' | 'targetRatio' | 'no429' | 'scale'>;
  options: Omit<DrainOptions, 'world'>;
}

/** The Epson receipts world (`receipts.ts`) as a drain world. */
function receiptWorld(started: ReceiptPrinters, printMs: number): DrainWorld {
  const { printers } = started;
  return {
    scenario: (rateLimit) => receiptScenario(printers, rateLimit),
    devices: receiptDeviceConfigs(printers),
    create: (sim, n) => createReceipt(sim, printers, n),
    jobMs: printMs,
    naiveSleepsJobMs: true,
    deviceRequests: () => started.requests(),
  };
}

/** The ten simulated devices (`world.ts`) as a drain world. */
function simulatedWorld(jobMs: number): DrainWorld {
  return {
    scenario: (rateLimit) => benchScenario({ fiscalMs: jobMs, keysMs: jobMs }, rateLimit),
    devices: benchDeviceConfigs(),
    create: createBenchCommand,
    jobMs,
    naiveSleepsJobMs: false,
  };
}

/** The drain chart of one phase, beside the results file; returns its file name. */
function writeChart(out: string, name: string, phase: DrainPhase): string {
  const file = chartFile(out, name);
  const floor =
    phase.floor === 'devices'
      ? {
          label: "printers' floor",
          points: [
            [0, 0],
            [phase.agent.deviceFloorMs / 1000, phase.agent.commands],
          ] as Array<[number, number]>,
        }
      : { label: 'sliding-window floor', points: phase.agent.windowFloorCurve };
  const svg = lineChartSvg(
    [
      { label: 'our agent', color: '#1f77b4', points: phase.agent.curve },
      { label: 'naive baseline', color: '#d62728', points: phase.naive.curve },
      { label: floor.label, color: '#555', dashed: true, points: floor.points },
    ],
    {
      title: `Drain: ${phase.agent.commands} commands, ${phase.label} (floor ${(floorOf(phase, phase.agent) / 1000).toFixed(1)} s)`,
      xLabel: 'seconds since the backlog was created',
      yLabel: 'commands terminal',
    },
  );
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(join(dirname(out), file), svg);
  return file;
}

/**
 * `npm run bench [-- --quick] [-- --real-budget] [-- --only=pickup,printers,window,drain,resources,footprint]
 * [-- --out=FILE]`: our real daemon and a naive baseline against the platform simulator. Prints
 * the table and writes RESULTS.md (default bench/RESULTS.md for a full run, .tmp/bench/ for a
 * quick one) with the drain chart (SVG) beside it. A benchmark, not a test: it always exits 0
 * when it could measure, whatever the verdicts.
 */

const PHASES = ['pickup', 'printers', 'window', 'drain', 'resources', 'footprint'] as const;
type Phase = (typeof PHASES)[number];

function parseArgs(argv: string[]) {
  const quick = argv.includes('--quick');
  const realBudget = argv.includes('--real-budget');
  const only = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const out = argv.find((a) => a.startsWith('--out='))?.slice('--out='.length);
  const phases = new Set<Phase>(
    only ? only.split(',').filter((p): p is Phase => (PHASES as readonly string[]).includes(p)) : PHASES,
  );
  const root = join(import.meta.dirname, '..');
  const defaultOut = quick ? join(root, '.tmp', 'bench', 'RESULTS.md') : join(root, 'bench', 'RESULTS.md');
  return { quick, realBudget, phases, out: resolve(out ?? defaultOut), root };
}

function git(root: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

const say = (text: string) =>
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

/** The simulator's `latency` sleeps share one AbortSignal: Node warns past 10 listeners; noise here. */
function quietListenerWarnings(): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name !== 'MaxListenersExceededWarning') process.stderr.write(`${warning.stack ?? warning}\n`);
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  quietListenerWarnings();
  const results: BenchResults = {
    quick: args.quick,
    date: new Date().toISOString(),
    commit: git(args.root, ['rev-parse', '--short', 'HEAD']) || 'unknown',
    dirtyFiles: git(args.root, ['status', '--porcelain']).split('\n').filter(Boolean).length,
    machine: machine(),
  };
  say(`${args.quick ? 'quick' : 'full'} run, phases: ${[...args.phases].join(', ')}`);
  // Every phase runs the contestants as installed: our agent's bundle with its shebang's flags,
  // the baseline compiled, both by plain node.
  say('bundling the agent as installed and compiling the baseline (.tmp/bench-build)');
  const built: BenchBuild = await buildForBench();
  const installed = ourAgent(join(built.dir, 'app', 'main.js'));

  if (args.phases.has('pickup')) {
    const count = args.quick ? 10 : 40;
    const base = { count, minGapMs: 600, maxGapMs: 1800, latencyMs: 20, timeoutMs: 120_000 };
    say(`pickup: our agent with the WebSocket (${count} commands)`);
    const agentWs = await measurePickup(installed, { ...base, websocket: true });
    say('pickup: our agent polling only');
    const agentPoll = await measurePickup(installed, { ...base, websocket: false });
    say('pickup: naive baseline');
    const naive = await measurePickup(naiveAgent(built.dir), { ...base, websocket: false });
    results.pickup = { count, latencyMs: base.latencyMs, agentWs, agentPoll, naive };
  }

  const charts: string[] = [];
  const drainPhase = async (
    name: 'printers' | 'window' | 'drain',
    setup: DrainSetup,
  ): Promise<DrainPhase> => {
    const { world, phase, options } = setup;
    say(`${name}: our agent, ${options.commands} commands, ${phase.label}`);
    const agent = await measureDrain(installed, { ...options, world });
    say(`${name}: naive baseline`);
    const naive = await measureDrain(naiveAgent(built.dir), { ...options, world });
    const result: DrainPhase = {
      ...phase,
      websocket: options.websocket,
      rateLimit: options.rateLimit,
      pollMs: options.pollMs,
      latencyMs: options.latencyMs,
      jobMs: world.jobMs,
      devices: world.devices.length,
      agent,
      naive,
    };
    charts.push(writeChart(args.out, name, result));
    return result;
  };

  /** A polling-only drain over four Epson printers taking 50 ms a receipt, at `rateLimit`. */
  const receiptsPhase = async (
    name: 'printers' | 'window',
    phase: DrainSetup['phase'],
    commands: number,
    rateLimit: { requests: number; windowSeconds: number },
  ): Promise<DrainPhase> => {
    const printers = await startReceiptPrinters(4, 50);
    try {
      return await drainPhase(name, {
        world: receiptWorld(printers, 50),
        phase,
        options: { commands, rateLimit, websocket: false, pollMs: 500, latencyMs: 20, timeoutMs: 5 * 60_000 },
      });
    } finally {
      await printers.close();
    }
  };

  if (args.phases.has('printers')) {
    results.printers = await receiptsPhase(
      'printers',
      { label: 'polling, 4 printers × 50 ms', floor: 'devices', targetRatio: 1.5, no429: false, scale: 1 },
      args.quick ? 100 : 300,
      { requests: 100_000, windowSeconds: 30 },
    );
  }

  if (args.phases.has('window')) {
    results.window = await receiptsPhase(
      'window',
      { label: 'polling, 200 / 30 s', floor: 'window', targetRatio: 1.2, no429: true, scale: 1 },
      120,
      { requests: 200, windowSeconds: 30 },
    );
  }

  if (args.phases.has('drain')) {
    const scale = args.realBudget ? 1 : 10;
    results.drain = await drainPhase('drain', {
      world: simulatedWorld(50),
      phase: {
        label: `WebSocket, 10 devices, 200 / ${30 / scale} s`,
        floor: 'window',
        targetRatio: 1.1,
        no429: false,
        scale,
      },
      options: {
        commands: args.quick ? 300 : 1000,
        rateLimit: { requests: 200, windowSeconds: 30 / scale },
        websocket: true,
        pollMs: Math.max(100, 2000 / scale),
        latencyMs: 20,
        timeoutMs: (args.realBudget ? 40 : 8) * 60_000,
      },
    });
  }

  if (args.phases.has('resources') && built) {
    const build = built.dir;
    const idleMs = args.quick ? 15_000 : 60_000;
    const options = {
      warmMs: args.quick ? 5000 : 15_000,
      idleMs,
      burst: 1000,
      settleMs: 30_000,
      loadTimeoutMs: 10 * 60_000,
    };
    say(`resources: both agents (compiled) idle for ${idleMs / 1000} s, side by side`);
    const [agentIdle, naiveIdle, watchdogIdle] = await Promise.all([
      measureIdle(builtAgent(build), options),
      measureIdle(naiveAgent(build), options),
      measureIdle(builtAgent(build, false, 30), options),
    ]);
    say(`resources: our agent (compiled, inspector on), a burst of ${options.burst} receipts`);
    const agent = { ...agentIdle, ...(await measureBurst(builtAgent(build, true), options)) };
    say(`resources: naive baseline (compiled, inspector on), a burst of ${options.burst} receipts`);
    const naive = { ...naiveIdle, ...(await measureBurst(naiveAgent(build, true), options)) };
    results.resources = {
      burst: options.burst,
      idleMs,
      settleMs: options.settleMs,
      agent,
      naive,
      watchdogIdle,
    };
  }

  if (args.phases.has('footprint') && built) {
    say('footprint: memory per runtime dependency');
    results.footprint = measureFootprint(built.runChunk);
  }

  process.stdout.write(`\n${textTable(rows(results))}\n\n`);
  const previous = existsSync(args.out) ? readFileSync(args.out, 'utf8') : undefined;
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, resultsMarkdown(results, args.out, keptAnalysis(previous)));
  say(`wrote ${args.out}${charts.length ? ` and ${charts.join(', ')}` : ''}`);
}

await main();
process.exit(0);
