import type { DrainResult } from './drain.js';
import type { FootprintRow } from './footprint.js';
import type { PickupResult } from './pickup.js';
import type { IdleResult, ResourceResult } from './resources.js';

/** One drain phase: how it was set up and what both contestants did. */
export interface DrainPhase {
  /** What the phase is, for the table: e.g. "polling, 4 printers × 50 ms". */
  label: string;
  /** Which floor the target is judged against. */
  floor: 'devices' | 'window';
  /** The target: wall time ≤ `targetRatio` × the floor. */
  targetRatio: number;
  /** Whether the target also asks for zero 429 answers. */
  no429: boolean;
  websocket: boolean;
  /** The real window ÷ this; 1 at the real budget. */
  scale: number;
  rateLimit: { requests: number; windowSeconds: number };
  pollMs: number;
  latencyMs: number;
  jobMs: number;
  devices: number;
  agent: DrainResult;
  naive: DrainResult;
}

/** Everything one bench run measured, and how. */
export interface BenchResults {
  quick: boolean;
  date: string;
  commit: string;
  /** Files changed in the checkout but not committed when the bench ran. */
  dirtyFiles: number;
  machine: { cores: number; memoryMb: number; node: string; loadavg: string; cpu: string };
  pickup?: {
    count: number;
    latencyMs: number;
    agentWs: PickupResult;
    agentPoll: PickupResult;
    naive: PickupResult;
  };
  /** Polling-only drain, Epson printers, ample budget: against the printers' floor. */
  printers?: DrainPhase;
  /** Polling-only drain at the real 200 / 30 s: against the sliding window's floor. */
  window?: DrainPhase;
  /** 1,000 commands over the ten simulated devices, WebSocket on, scaled budget. */
  drain?: DrainPhase;
  resources?: {
    burst: number;
    idleMs: number;
    /** Quiet time between the last receipt and the second memory reading. */
    settleMs: number;
    agent: ResourceResult;
    naive: ResourceResult;
    /** Our agent idle with systemd's watchdog environment (its watchdog loop on). */
    watchdogIdle?: IdleResult;
  };
  footprint?: FootprintRow[];
}

export interface Row {
  figure: string;
  agent: string;
  naive: string;
  ratio: string;
  target: string;
  verdict: string;
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : 'n/a');
const s = (v: number) => (Number.isFinite(v) ? `${(v / 1000).toFixed(1)} s` : 'n/a');
const ratio = (a: number, b: number) =>
  Number.isFinite(a / b) && b !== 0 ? `${(a / b).toFixed(2)}×` : 'n/a';

function verdict(ok: boolean, results: BenchResults, needsFull: boolean): string {
  const word = ok ? 'PASS' : 'MISS';
  return results.quick && needsFull ? `${word} (quick run: indicative)` : word;
}

/** The most a WebSocket pickup may take: three round trips plus 20 ms. */
export function pickupTargetMs(latencyMs: number): number {
  return 3 * latencyMs + 20;
}

export function floorOf(phase: DrainPhase, result: DrainResult): number {
  return phase.floor === 'devices' ? result.deviceFloorMs : result.windowFloorMs;
}

function drainRows(phase: DrainPhase, results: BenchResults, judgeRequests: boolean): Row[] {
  const { agent, naive } = phase;
  const floorName = phase.floor === 'devices' ? "printers' floor" : 'window floor';
  const fa = floorOf(phase, agent);
  const fn = floorOf(phase, naive);
  const rows: Row[] = [
    {
      figure: `drain ${agent.commands}, ${phase.label}`,
      agent: `${s(agent.wallMs)} (${ratio(agent.wallMs, fa)})`,
      naive: `${s(naive.wallMs)} (${ratio(naive.wallMs, fn)})`,
      ratio: ratio(agent.wallMs, naive.wallMs),
      target: `≤ ${phase.targetRatio} × ${floorName} ${s(fa)}${phase.no429 ? ', no 429' : ''}`,
      verdict: verdict(
        agent.finished === agent.commands &&
          agent.wallMs <= phase.targetRatio * fa &&
          (!phase.no429 || agent.rateLimited === 0),
        results,
        true,
      ),
    },
    {
      figure: '  first receipt terminal',
      agent: s(agent.firstTerminalMs),
      naive: s(naive.firstTerminalMs),
      ratio: ratio(agent.firstTerminalMs, naive.firstTerminalMs),
      target: '',
      verdict: '',
    },
    {
      figure: '  requests per command',
      agent: agent.requestsPerCommand.toFixed(2),
      naive: naive.requestsPerCommand.toFixed(2),
      ratio: ratio(agent.requestsPerCommand, naive.requestsPerCommand),
      target: judgeRequests ? '≤ 3.1' : '',
      verdict: judgeRequests ? verdict(agent.requestsPerCommand <= 3.1, results, true) : '',
    },
    {
      figure: '  command items read per command',
      agent: agent.itemsReadPerCommand.toFixed(2),
      naive: naive.itemsReadPerCommand.toFixed(2),
      ratio: ratio(agent.itemsReadPerCommand, naive.itemsReadPerCommand),
      target: phase.floor === 'devices' ? '≤ 1.5' : '',
      verdict: phase.floor === 'devices' ? verdict(agent.itemsReadPerCommand <= 1.5, results, true) : '',
    },
    {
      figure: '  agent CPU per receipt',
      agent: `${(agent.cpuMs / agent.commands).toFixed(1)} ms`,
      naive: `${(naive.cpuMs / naive.commands).toFixed(1)} ms`,
      ratio: ratio(agent.cpuMs, naive.cpuMs),
      target: phase.floor === 'devices' ? '≤ 5 ms' : '',
      verdict: phase.floor === 'devices' ? verdict(agent.cpuMs / agent.commands <= 5, results, true) : '',
    },
    {
      figure: '  429 answers',
      agent: String(agent.rateLimited),
      naive: String(naive.rateLimited),
      ratio: '',
      target: '',
      verdict: '',
    },
  ];
  return rows;
}

/** The table rows, in the order of the brief's targets. */
export function rows(results: BenchResults): Row[] {
  const out: Row[] = [];
  const { pickup, resources } = results;
  if (pickup) {
    const { agentWs, agentPoll, naive } = pickup;
    const target = pickupTargetMs(pickup.latencyMs);
    out.push(
      {
        figure: 'pickup p50, WebSocket',
        agent: ms(agentWs.p50),
        naive: ms(naive.p50),
        ratio: ratio(agentWs.p50, naive.p50),
        target: '',
        verdict: '',
      },
      {
        figure: 'pickup p99, WebSocket',
        agent: ms(agentWs.p99),
        naive: ms(naive.p99),
        ratio: ratio(agentWs.p99, naive.p99),
        target: `≤ ${target} ms (3 round trips + 20 ms)`,
        verdict: verdict(agentWs.p99 <= target && agentWs.missing === 0, results, false),
      },
      {
        figure: 'pickup p50, polling only',
        agent: ms(agentPoll.p50),
        naive: ms(naive.p50),
        ratio: ratio(agentPoll.p50, naive.p50),
        target: '',
        verdict: '',
      },
      {
        figure: 'pickup p99, polling only',
        agent: ms(agentPoll.p99),
        naive: ms(naive.p99),
        ratio: ratio(agentPoll.p99, naive.p99),
        target: '',
        verdict: '',
      },
    );
  }
  if (results.printers) out.push(...drainRows(results.printers, results, false));
  if (results.window) out.push(...drainRows(results.window, results, true));
  if (results.drain) out.push(...drainRows(results.drain, results, false));
  if (resources) {
    const { agent, naive, burst } = resources;
    out.push(
      {
        figure: 'RSS idle, real drivers',
        agent: mb(agent.idleRssBytes),
        naive: mb(naive.idleRssBytes),
        ratio: ratio(agent.idleRssBytes, naive.idleRssBytes),
        target: '≤ 70 MB',
        verdict: verdict(agent.idleRssBytes <= 70 * 1048576, results, false),
      },
      {
        figure: `RSS after ${burst} receipts (+${Math.round(resources.settleMs / 1000)} s)`,
        agent: `${mb(agent.baseRssBytes)} → ${mb(agent.loadedRssBytes)}`,
        naive: `${mb(naive.baseRssBytes)} → ${mb(naive.loadedRssBytes)}`,
        ratio: ratio(agent.loadedRssBytes, naive.loadedRssBytes),
        target: '≤ 100 MB',
        verdict: verdict(agent.loadedRssBytes <= 100 * 1048576 && agent.finished === burst, results, true),
      },
      {
        figure: '  peak RSS during the burst',
        agent: mb(agent.peakRssBytes),
        naive: mb(naive.peakRssBytes),
        ratio: ratio(agent.peakRssBytes, naive.peakRssBytes),
        target: '',
        verdict: '',
      },
      ...gcRows(agent, naive, burst),
      {
        figure: `CPU idle (${Math.round(resources.idleMs / 1000)} s)`,
        agent: `${agent.idleCpuPercent.toFixed(2)} %`,
        naive: `${naive.idleCpuPercent.toFixed(2)} %`,
        ratio: ratio(agent.idleCpuPercent, naive.idleCpuPercent),
        target: '≤ 0.5 % of a core',
        verdict: verdict(agent.idleCpuPercent <= 0.5, results, true),
      },
      ...(resources.watchdogIdle
        ? [
            {
              figure: '  … under systemd, WatchdogSec=30',
              agent: `${resources.watchdogIdle.idleCpuPercent.toFixed(2)} %`,
              naive: '',
              ratio: '',
              target: '≤ 0.5 % of a core',
              verdict: verdict(resources.watchdogIdle.idleCpuPercent <= 0.5, results, true),
            },
          ]
        : []),
    );
  }
  return out;
}

/** Diagnosis rows from the forced-GC readings (no targets: they explain the RSS figures). */
function gcRows(agent: ResourceResult, naive: ResourceResult, receipts: number): Row[] {
  const a = agent.afterGc;
  const n = naive.afterGc;
  const row = (figure: string, va: number, vn: number): Row => ({
    figure,
    agent: mb(va),
    naive: mb(vn),
    ratio: ratio(va, vn),
    target: '',
    verdict: '',
  });
  const rows = [
    row('  live heap idle (forced GC)', a.idleHeapBytes, n.idleHeapBytes),
    row(`  live heap after ${receipts} receipts (forced GC)`, a.loadedHeapBytes, n.loadedHeapBytes),
    row('  RSS growth after forced GC', a.loadedRssBytes - a.idleRssBytes, n.loadedRssBytes - n.idleRssBytes),
  ];
  return rows;
}

const HEADERS: Row = {
  figure: 'figure',
  agent: 'our agent',
  naive: 'naive baseline',
  ratio: 'ours/naive',
  target: 'target',
  verdict: 'verdict',
};
const COLUMNS = Object.keys(HEADERS) as Array<keyof Row>;

/** A plain-text table for the terminal. */
export function textTable(list: readonly Row[]): string {
  const all = [HEADERS, ...list];
  const widths = COLUMNS.map((c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r: Row) => COLUMNS.map((c, i) => r[c].padEnd(widths[i] as number)).join('  ');
  return [line(HEADERS), widths.map((w) => '-'.repeat(w)).join('  '), ...list.map(line)].join('\n');
}

/** The same table in Markdown. */
export function markdownTable(list: readonly Row[]): string {
  const line = (r: Row) => `| ${COLUMNS.map((c) => r[c] || ' ').join(' | ')} |`;
  return [line(HEADERS), `|${COLUMNS.map(() => '---').join('|')}|`, ...list.map(line)].join('\n');
}

export { mb, ms, s };
