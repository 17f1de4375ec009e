import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { builtAgent, naiveAgent, ourAgent } from './agents.js';
import { buildForBench } from './build.js';
import { lineChartSvg } from './chart.js';
import { type DrainResult, measureDrain } from './drain.js';
import { ledgerHeapBytes, measureFootprint } from './footprint.js';
import { measurePickup } from './pickup.js';
import { machine } from './proc.js';
import { type BenchResults, rows, textTable } from './report.js';
import { measureGrowth, measureIdle } from './resources.js';
import { keptAnalysis, resultsMarkdown } from './results-md.js';

/**
 * `npm run bench [-- --quick] [-- --real-budget] [-- --only=pickup,drain,resources,footprint]
 * [-- --out=FILE]`: our real daemon and a naive baseline against the platform simulator. Prints
 * the table and writes RESULTS.md (default bench/RESULTS.md for a full run, .tmp/bench/ for a
 * quick one) with the drain chart (SVG) beside it. A benchmark, not a test: it always exits 0
 * when it could measure, whatever the verdicts.
 */

const PHASES = ['pickup', 'drain', 'resources', 'footprint'] as const;
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

function floorCurve(drain: DrainResult, requests: number, windowSeconds: number): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  const pages = drain.floorRequests - 3 * drain.commands;
  for (let k = 0; ; k++) {
    const done = Math.min(drain.commands, Math.floor(((k + 1) * requests - pages) / 3));
    points.push([k * windowSeconds, done], [(k + 1) * windowSeconds, done]);
    if (done >= drain.commands) break;
  }
  return points;
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
  let build: string | undefined;
  if (args.phases.has('resources') || args.phases.has('footprint')) {
    say('compiling the agent and the baseline to JavaScript (.tmp/bench-build)');
    build = buildForBench();
  }

  if (args.phases.has('pickup')) {
    const count = args.quick ? 10 : 40;
    const base = { count, minGapMs: 600, maxGapMs: 1800, latencyMs: 20, timeoutMs: 120_000 };
    say(`pickup: our agent with the WebSocket (${count} commands)`);
    const agentWs = await measurePickup(ourAgent, { ...base, websocket: true });
    say('pickup: our agent polling only');
    const agentPoll = await measurePickup(ourAgent, { ...base, websocket: false });
    say('pickup: naive baseline');
    const naive = await measurePickup(naiveAgent(), { ...base, websocket: false });
    results.pickup = { count, latencyMs: base.latencyMs, agentWs, agentPoll, naive };
  }

  let chart: string | undefined;
  if (args.phases.has('drain')) {
    const scale = args.realBudget ? 1 : 10;
    const rateLimit = { requests: 200, windowSeconds: 30 / scale };
    const options = {
      commands: args.quick ? 300 : 1000,
      rateLimit,
      pollMs: Math.max(100, 2000 / scale),
      latencyMs: 20,
      jobMs: 50,
      timeoutMs: (args.realBudget ? 40 : 8) * 60_000,
    };
    say(
      `drain: our agent, ${options.commands} commands at ${rateLimit.requests}/${rateLimit.windowSeconds} s`,
    );
    const agent = await measureDrain(ourAgent, options);
    say('drain: naive baseline');
    const naive = await measureDrain(naiveAgent(), options);
    results.drain = { realBudget: args.realBudget, scale, ...options, agent, naive };
    chart = `${basename(args.out, '.md').toLowerCase()}-drain.svg`.replace(/^results-/, '');
    const svg = lineChartSvg(
      [
        { label: 'our agent', color: '#1f77b4', points: agent.curve },
        { label: 'naive baseline', color: '#d62728', points: naive.curve },
        {
          label: 'rate-budget floor',
          color: '#555',
          dashed: true,
          points: floorCurve(agent, rateLimit.requests, rateLimit.windowSeconds),
        },
      ],
      {
        title: `Backlog drain: ${options.commands} commands, 10 devices, ${rateLimit.requests} req / ${rateLimit.windowSeconds} s${args.realBudget ? '' : ' (scaled)'}`,
        xLabel: 'seconds since the backlog was created',
        yLabel: 'commands terminal',
      },
    );
    mkdirSync(dirname(args.out), { recursive: true });
    writeFileSync(join(dirname(args.out), chart), svg);
  }

  if (args.phases.has('resources') && build) {
    const commands = args.quick ? 1000 : 20_000;
    const idleMs = args.quick ? 15_000 : 60_000;
    const options = {
      warmMs: 5000,
      idleMs,
      commands,
      window: 100,
      settleMs: 30_000,
      loadTimeoutMs: 20 * 60_000,
    };
    say(`resources: both agents (compiled) idle for ${idleMs / 1000} s, side by side`);
    const [agentIdle, naiveIdle, watchdogIdle] = await Promise.all([
      measureIdle(builtAgent(build), options),
      measureIdle(naiveAgent(build), options),
      measureIdle(builtAgent(build, false, 30), options),
    ]);
    say(`resources: our agent (compiled, inspector on), ${commands} commands`);
    const agent = { ...agentIdle, ...(await measureGrowth(builtAgent(build, true), options)) };
    if (agent.dataDir) agent.ledgerHeapBytes = ledgerHeapBytes(build, agent.dataDir);
    say(`resources: naive baseline (compiled, inspector on), ${commands} commands`);
    // The baseline handles what one getAllActive returns, then sleeps 2 s: give it a full page.
    const naive = {
      ...naiveIdle,
      ...(await measureGrowth(naiveAgent(build, true), { ...options, window: 1000 })),
    };
    results.resources = {
      commands,
      idleMs,
      settleMs: options.settleMs,
      windows: { agent: 100, naive: 1000 },
      agent,
      naive,
      watchdogIdle,
    };
  }

  if (args.phases.has('footprint') && build) {
    say('footprint: memory per runtime dependency');
    results.footprint = measureFootprint(build);
  }

  process.stdout.write(`\n${textTable(rows(results))}\n\n`);
  const previous = existsSync(args.out) ? readFileSync(args.out, 'utf8') : undefined;
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, resultsMarkdown(results, chart, keptAnalysis(previous)));
  say(`wrote ${args.out}${chart ? ` and ${chart}` : ''}`);
}

await main();
process.exit(0);
