import type { DrainResult } from './drain.js';
import type { FootprintRow } from './footprint.js';
import type { PickupResult } from './pickup.js';
import type { IdleResult, ResourceResult } from './resources.js';

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
  drain?: {
    realBudget: boolean;
    scale: number;
    rateLimit: { requests: number; windowSeconds: number };
    pollMs: number;
    latencyMs: number;
    jobMs: number;
    agent: DrainResult;
    naive: DrainResult;
  };
  resources?: {
    commands: number;
    idleMs: number;
    /** Quiet time between the last command and the second memory reading. */
    settleMs: number;
    /** Commands outstanding at most during the growth load, per contestant. */
    windows: { agent: number; naive: number };
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

/** The table rows, in the order of the brief's targets. */
export function rows(results: BenchResults): Row[] {
  const out: Row[] = [];
  const { pickup, drain, resources } = results;
  if (pickup) {
    const { agentWs, agentPoll, naive } = pickup;
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
        target: '≤ 500 ms',
        verdict: verdict(agentWs.p99 <= 500 && agentWs.missing === 0, results, false),
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
  if (drain) {
    const { agent, naive } = drain;
    const floor = `≤ 1.1 × floor ${s(agent.floorMs)}`;
    out.push(
      {
        figure: `drain ${agent.commands} cmds, wall`,
        agent: `${s(agent.wallMs)} (${ratio(agent.wallMs, agent.floorMs)} floor)`,
        naive: `${s(naive.wallMs)} (${ratio(naive.wallMs, naive.floorMs)} floor)`,
        ratio: ratio(agent.wallMs, naive.wallMs),
        target: floor,
        verdict: verdict(
          agent.finished === agent.commands && agent.wallMs <= 1.1 * agent.floorMs,
          results,
          true,
        ),
      },
      {
        figure: 'drain: first command terminal',
        agent: s(agent.firstTerminalMs),
        naive: s(naive.firstTerminalMs),
        ratio: ratio(agent.firstTerminalMs, naive.firstTerminalMs),
        target: '',
        verdict: '',
      },
      {
        figure: 'requests per command',
        agent: agent.requestsPerCommand.toFixed(2),
        naive: naive.requestsPerCommand.toFixed(2),
        ratio: ratio(agent.requestsPerCommand, naive.requestsPerCommand),
        target: '≤ 3.1',
        verdict: verdict(agent.requestsPerCommand <= 3.1, results, true),
      },
      {
        figure: '429 answers during drain',
        agent: String(agent.rateLimited),
        naive: String(naive.rateLimited),
        ratio: '',
        target: '',
        verdict: '',
      },
    );
  }
  if (resources) {
    const { agent, naive, commands } = resources;
    const growthA = agent.loadedRssBytes - agent.baseRssBytes;
    const growthN = naive.loadedRssBytes - naive.baseRssBytes;
    out.push(
      {
        figure: 'RSS idle',
        agent: mb(agent.idleRssBytes),
        naive: mb(naive.idleRssBytes),
        ratio: ratio(agent.idleRssBytes, naive.idleRssBytes),
        target: '≤ 80 MB',
        verdict: verdict(agent.idleRssBytes <= 80 * 1048576, results, false),
      },
      {
        figure: `RSS before → after ${commands} cmds`,
        agent: `${mb(agent.baseRssBytes)} → ${mb(agent.loadedRssBytes)}`,
        naive: `${mb(naive.baseRssBytes)} → ${mb(naive.loadedRssBytes)}`,
        ratio: ratio(agent.loadedRssBytes, naive.loadedRssBytes),
        target: '',
        verdict: '',
      },
      {
        figure: 'RSS growth',
        agent: mb(growthA),
        naive: mb(growthN),
        ratio: ratio(growthA, growthN),
        target: '≤ 10 MB',
        verdict: verdict(growthA <= 10 * 1048576 && agent.finished === commands, results, true),
      },
      ...gcRows(agent, naive, commands),
      {
        figure: `CPU idle (${Math.round(resources.idleMs / 1000)} s)`,
        agent: `${agent.idleCpuPercent.toFixed(2)} %`,
        naive: `${naive.idleCpuPercent.toFixed(2)} %`,
        ratio: ratio(agent.idleCpuPercent, naive.idleCpuPercent),
        target: '≤ 1 % of a core',
        verdict: verdict(agent.idleCpuPercent <= 1, results, true),
      },
      ...(resources.watchdogIdle
        ? [
            {
              figure: '  … under systemd, WatchdogSec=30',
              agent: `${resources.watchdogIdle.idleCpuPercent.toFixed(2)} %`,
              naive: '',
              ratio: '',
              target: '≤ 1 % of a core',
              verdict: verdict(resources.watchdogIdle.idleCpuPercent <= 1, results, true),
            },
          ]
        : []),
    );
  }
  return out;
}

/** Diagnosis rows from the forced-GC readings (no targets: they explain the RSS figures). */
function gcRows(agent: ResourceResult, naive: ResourceResult, commands: number): Row[] {
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
    row('live heap idle (forced GC)', a.idleHeapBytes, n.idleHeapBytes),
    row(`live heap after ${commands} cmds (forced GC)`, a.loadedHeapBytes, n.loadedHeapBytes),
    row('RSS growth after forced GC', a.loadedRssBytes - a.idleRssBytes, n.loadedRssBytes - n.idleRssBytes),
  ];
  if (agent.ledgerHeapBytes !== undefined) {
    rows.push({
      figure: '  of which simulated-device ledgers',
      agent: mb(agent.ledgerHeapBytes),
      naive: 'none',
      ratio: '',
      target: '',
      verdict: '',
    });
  }
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
