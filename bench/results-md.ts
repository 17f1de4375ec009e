import { basename } from 'node:path';
import { type BenchResults, type DrainPhase, floorOf, markdownTable, mb, ms, rows, s } from './report.js';

export const ANALYSIS_START = '<!-- analysis:start -->';
export const ANALYSIS_END = '<!-- analysis:end -->';

/** The hand-written analysis kept from an earlier RESULTS.md (between the markers), if any. */
export function keptAnalysis(previous: string | undefined): string | undefined {
  if (!previous) return undefined;
  const start = previous.indexOf(ANALYSIS_START);
  const end = previous.indexOf(ANALYSIS_END);
  if (start < 0 || end < start) return undefined;
  return previous.slice(start, end + ANALYSIS_END.length);
}

/** The chart of drain phase `name` beside the results file `out` (`drain-window.svg` …). */
export function chartFile(out: string, name: string): string {
  const stem = basename(out, '.md')
    .toLowerCase()
    .replace(/^results-?/, '');
  return `${stem ? `${stem}-` : ''}drain-${name}.svg`;
}

function operations(byOperation: Record<string, Record<string, number>>, commands: number): string[] {
  return Object.entries(byOperation)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([operation, statuses]) => {
      const total = Object.values(statuses).reduce((sum, n) => sum + n, 0);
      const detail = Object.entries(statuses)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ');
      return `| ${operation} | ${total} | ${(total / commands).toFixed(2)} | ${detail} |`;
    });
}

/** What a drain phase set up, in words. */
const DRAIN_SETUPS: Record<'printers' | 'window' | 'drain', (p: DrainPhase) => string[]> = {
  printers: (p) => [
    `${p.agent.commands} fpmate payload receipts created at once over ${p.devices} Epson RT printers, each driven by the`,
    `real \`epson-fpmate\` driver against its own printer simulator taking ${p.jobMs} ms to print (the baseline sleeps`,
    `${p.jobMs} ms per receipt instead). Polling only: no WebSocket, both agents poll every ${p.pollMs} ms. An ample`,
    `budget (${p.rateLimit.requests} requests / ${p.rateLimit.windowSeconds} s), ${p.latencyMs} ms round trip per request.`,
    `Floor = the printers' own time: ${Math.ceil(p.agent.commands / p.devices)} receipts per printer × ${p.jobMs} ms = ${s(p.agent.deviceFloorMs)}.`,
  ],
  window: (p) => [
    `${p.agent.commands} fpmate payload receipts created at once over ${p.devices} Epson RT printers (real driver, ${p.jobMs} ms`,
    `per print), at the platform's real limit on both sides: ${p.rateLimit.requests} requests / ${p.rateLimit.windowSeconds} s, sliding. Polling only,`,
    `every ${p.pollMs} ms; ${p.latencyMs} ms round trip per request.`,
    `Floor = the sliding window's: request k goes no earlier than request k − ${p.rateLimit.requests} plus ${p.rateLimit.windowSeconds} s, for the`,
    `${p.agent.floorRequests} requests the work needs (three updates per receipt and one page read), counting what the`,
    `contestant's idle polling left in the window when the receipts were created: ${s(p.agent.windowFloorMs)} for our agent.`,
  ],
  drain: (p) => [
    `${p.agent.commands} commands created at once over ${p.devices} devices (5 simulated RT printers with fpmate payload receipts,`,
    `5 simulated encoders with one card each; ${p.jobMs} ms of device time per job), WebSocket on,`,
    p.scale === 1
      ? `at the real budget, ${p.rateLimit.requests} requests / ${p.rateLimit.windowSeconds} s.`
      : `at a **scaled** budget on both sides: ${p.rateLimit.requests} requests / ${p.rateLimit.windowSeconds} s (the real window ÷ ${p.scale}), with the poll interval scaled alike (${p.pollMs} ms); \`--real-budget\` runs it at 200 / 30 s.`,
    `Round trip ${p.latencyMs} ms. Floor = the sliding window's for ${p.agent.floorRequests} requests, as above: ${s(p.agent.windowFloorMs)}.`,
  ],
};

function drainSection(
  out: string,
  title: string,
  name: 'printers' | 'window' | 'drain',
  p: DrainPhase,
): string[] {
  return [
    `## ${title}`,
    '',
    ...DRAIN_SETUPS[name](p),
    'Wall time = first creation → last terminal state on the simulator.',
    '',
    `![${title}](${chartFile(out, name)})`,
    '',
    `Our agent: ${p.agent.requests} requests, ${p.agent.finished}/${p.agent.commands} terminal, ${p.agent.rateLimited} answered 429, ${s(p.agent.wallMs)} (${(p.agent.wallMs / floorOf(p, p.agent)).toFixed(2)}× the floor), ${s(p.agent.cpuMs)} of CPU${p.agent.deviceRequestsPerCommand !== undefined ? `, ${p.agent.deviceRequestsPerCommand.toFixed(2)} printer requests per receipt` : ''}.`,
    '',
    '| operation | requests | per command | by status |',
    '|---|---|---|---|',
    ...operations(p.agent.byOperation, p.agent.commands),
    '',
    `Naive baseline: ${p.naive.requests} requests, ${p.naive.finished}/${p.naive.commands} terminal, ${p.naive.rateLimited} answered 429, ${s(p.naive.wallMs)}, ${s(p.naive.cpuMs)} of CPU.`,
    '',
    '| operation | requests | per command | by status |',
    '|---|---|---|---|',
    ...operations(p.naive.byOperation, p.naive.commands),
    '',
  ];
}

/**
 * RESULTS.md: machine, date, commit, how each figure was taken, the table, the evidence behind
 * it (requests by operation, memory by mapping and by dependency), the charts, and the kept
 * analysis section.
 */
export function resultsMarkdown(results: BenchResults, file: string, analysis?: string): string {
  const m = results.machine;
  const out: string[] = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${results.quick ? ' -- --quick' : ''}\` (bench/run.ts). Re-run it to refresh the figures;`,
    'the analysis section between the markers is kept across runs.',
    '',
    `- date: ${results.date}`,
    `- commit: \`${results.commit}\`${results.dirtyFiles ? ` (plus ${results.dirtyFiles} uncommitted files in the checkout)` : ''}`,
    `- machine: ${m.cores} cores (${m.cpu}), ${m.memoryMb} MB memory, node ${m.node}, load average at start ${m.loadavg}`,
    `- mode: ${results.quick ? '**quick** (reduced counts; verdicts needing the full counts are indicative)' : 'full'}`,
    '',
    '## Figures',
    '',
    markdownTable(rows(results)),
    '',
  ];
  const { pickup, resources, footprint } = results;
  if (pickup) {
    out.push(
      '## Pickup latency',
      '',
      `${pickup.count} commands per contestant, created one at a time at seeded random gaps (0.6–1.8 s), against the`,
      `platform simulator at the real default budget (200 requests / 30 s) with a simulated round trip of ${pickup.latencyMs} ms`,
      "on every request. Latency = the simulator's history: created → Received. The issue's target counts three",
      'round trips for a fiscal command announced by the WebSocket (`commands/getAllByIds`, which does not return',
      'fiscal commands, then `fiscalMachineCommands/getAll` by id, then the Received update); our agent sends the',
      'two reads together (an event does not say which device), so it needs two. Our agent polls every 2 s',
      '(default) when polling only; the naive baseline sleeps 2 s between passes.',
      '',
      `- our agent, WebSocket: p50 ${ms(pickup.agentWs.p50)}, p99 ${ms(pickup.agentWs.p99)}, max ${ms(pickup.agentWs.max)}, never Received: ${pickup.agentWs.missing}`,
      `- our agent, polling only: p50 ${ms(pickup.agentPoll.p50)}, p99 ${ms(pickup.agentPoll.p99)}, max ${ms(pickup.agentPoll.max)}, never Received: ${pickup.agentPoll.missing}`,
      `- naive: p50 ${ms(pickup.naive.p50)}, p99 ${ms(pickup.naive.p99)}, max ${ms(pickup.naive.max)}, never Received: ${pickup.naive.missing}`,
      `- resident memory at the end of the phase, as installed: our agent ${mb(pickup.agentWs.rssBytes)}, naive ${mb(pickup.naive.rssBytes)}`,
      '',
    );
  }
  if (results.printers)
    out.push(...drainSection(file, "Drain at the printers' pace", 'printers', results.printers));
  if (results.window)
    out.push(...drainSection(file, "Drain at the rate window's floor", 'window', results.window));
  if (results.drain)
    out.push(...drainSection(file, 'Backlog of 1,000 over ten devices', 'drain', results.drain));
  if (resources) {
    const { agent, naive } = resources;
    out.push(
      '## Memory and CPU',
      '',
      'Both contestants in their installed form: our agent as the esbuild bundle `npm run build` makes',
      "(scripts/bundle.ts), run as its launcher runs it, node with the flags of `dist/app/main.js`'s shebang; the",
      'baseline compiled by tsc, with plain node. Each runs against its own platform simulator',
      'with an ample budget and no added latency, WebSocket on, default poll intervals (2 s, safety net 60 s). Our',
      'agent runs one device per real driver: an Epson RT printer (`epson-fpmate`), a Salto encoder over TCP',
      '(`salto-encoder`) and an office printer (`ipp-printer`), each against its simulator.',
      `Idle: a plain process, warm-up, then ${Math.round(resources.idleMs / 1000)} s idle (CPU = utime + stime from /proc/<pid>/stat),`,
      'then VmRSS; the contestants idle side by side (each CPU figure counts only its own process). Burst: a second',
      'process started with `--inspect=127.0.0.1:0` (a few MB more, the same before and after): VmRSS after the warm-up,',
      `then ${resources.burst} receipts created at once and run to their end (VmRSS sampled every 100 ms for the peak),`,
      `${Math.round(resources.settleMs / 1000)} s of quiet, VmRSS again.`,
      '',
      `- our agent: ${agent.finished} receipts in ${s(agent.loadWallMs)}; ${agent.idleRequests} platform requests while idle`,
      `- naive: ${naive.finished} receipts in ${s(naive.loadWallMs)}; ${naive.idleRequests} platform requests while idle`,
      '',
      'After each VmRSS reading of the burst process the bench forces two full garbage collections through the',
      'DevTools protocol and reads the live V8 heap again ("forced GC" rows). The targets are judged on the readings',
      'taken before that, as a running agent would show them.',
      '',
    );
    if (agent.idleMappings) {
      out.push(
        '### Where the idle agent’s memory lies',
        '',
        `VmRSS of our idle agent (${mb(agent.idleRssBytes)}) by mapping, from /proc/<pid>/smaps:`,
        '',
        '| mapping | RSS |',
        '|---|---|',
        ...agent.idleMappings.map((g) => `| ${g.what} | ${mb(g.bytes)} |`),
        '',
      );
    }
  }
  if (footprint) {
    out.push(
      '### What each runtime dependency costs',
      '',
      'VmRSS of a fresh `node` (with the agent’s runtime flags) after importing one runtime dependency (forced GC),',
      'each in its own process, from node_modules as an unbundled program loads it; the last row is the',
      'installed bundle’s daemon code (`run` and the libraries it uses, tree-shaken), loaded and not started:',
      '',
      '| imported | RSS |',
      '|---|---|',
      ...footprint.map((r) => `| ${r.what} | ${mb(r.rssBytes)} |`),
      '',
    );
  }
  out.push('## Analysis', '', analysis ?? `${ANALYSIS_START}\n(not written yet)\n${ANALYSIS_END}`, '');
  return out.join('\n');
}
