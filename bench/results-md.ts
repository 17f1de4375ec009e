import { type BenchResults, markdownTable, mb, ms, rows, s } from './report.js';

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

/**
 * RESULTS.md: machine, date, commit, how each figure was taken, the table, the evidence behind
 * it (requests by operation, memory by dependency), the chart, and the kept analysis section.
 */
export function resultsMarkdown(
  results: BenchResults,
  chartFile: string | undefined,
  analysis?: string,
): string {
  const m = results.machine;
  const out: string[] = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${results.quick ? ' -- --quick' : ''}\` (bench/run.ts). Re-run it to refresh the figures;`,
    'the analysis section between the markers is kept across runs.',
    '',
    `- date: ${results.date}`,
    `- commit: \`${results.commit}\`${results.dirtyFiles ? ` (plus ${results.dirtyFiles} uncommitted files in the checkout: teammates' work in progress)` : ''}`,
    `- machine: ${m.cores} cores (${m.cpu}), ${m.memoryMb} MB memory, node ${m.node}, load average at start ${m.loadavg}`,
    `- mode: ${results.quick ? '**quick** (reduced counts; verdicts needing the full counts are indicative)' : 'full'}`,
    '',
    '## Figures',
    '',
    markdownTable(rows(results)),
    '',
  ];
  const { pickup, drain, resources, footprint } = results;
  if (pickup) {
    out.push(
      '## Pickup latency',
      '',
      `${pickup.count} commands per contestant, created one at a time at seeded random gaps (0.6–1.8 s), against the`,
      `platform simulator at the real default budget (200 requests / 30 s) with a simulated round trip of ${pickup.latencyMs} ms`,
      "on every request. Latency = the simulator's history: created → Received. Our agent polls every 2 s (default);",
      'the naive baseline sleeps 2 s between passes.',
      '',
      `- our agent, WebSocket: p50 ${ms(pickup.agentWs.p50)}, p99 ${ms(pickup.agentWs.p99)}, max ${ms(pickup.agentWs.max)}, never Received: ${pickup.agentWs.missing}`,
      `- our agent, polling only: p50 ${ms(pickup.agentPoll.p50)}, p99 ${ms(pickup.agentPoll.p99)}, max ${ms(pickup.agentPoll.max)}, never Received: ${pickup.agentPoll.missing}`,
      `- naive: p50 ${ms(pickup.naive.p50)}, p99 ${ms(pickup.naive.p99)}, max ${ms(pickup.naive.max)}, never Received: ${pickup.naive.missing}`,
      `- resident memory at the end of the phase, under tsx (\`npm start\`'s form): our agent ${mb(pickup.agentWs.rssBytes)}, naive ${mb(pickup.naive.rssBytes)}`,
      '',
    );
  }
  if (drain) {
    const scaled = drain.realBudget
      ? 'at the real default budget, 200 requests / 30 s'
      : `at a **scaled** budget on both sides: ${drain.rateLimit.requests} requests / ${drain.rateLimit.windowSeconds} s (the real window ÷ ${drain.scale}), with the poll interval scaled alike (${drain.pollMs} ms) so polls cost the same share of the budget as in real time; \`--real-budget\` runs it at 200 / 30 s`;
    out.push(
      '## Backlog drain',
      '',
      `${drain.agent.commands} commands created at once over 10 devices (5 simulated RT printers with fpmate payload receipts,`,
      `5 simulated encoders with one card each; ${drain.jobMs} ms of device time per job), ${scaled}.`,
      `Round trip ${drain.latencyMs} ms per request. Wall time = first creation → last terminal state on the simulator.`,
      `Floor = the least time in which the budget lets ${drain.agent.floorRequests} requests through (three updates per command`,
      `plus one page read per 1,000 commands) starting from an empty window: ${s(drain.agent.floorMs)}.`,
      '',
      `![backlog drain](${chartFile ?? 'drain.svg'})`,
      '',
      `Our agent: ${drain.agent.requests} requests, ${drain.agent.finished}/${drain.agent.commands} terminal, ${drain.agent.rateLimited} answered 429.`,
      '',
      '| operation | requests | per command | by status |',
      '|---|---|---|---|',
      ...operations(drain.agent.byOperation, drain.agent.commands),
      '',
      `Naive baseline: ${drain.naive.requests} requests, ${drain.naive.finished}/${drain.naive.commands} terminal, ${drain.naive.rateLimited} answered 429.`,
      '',
      '| operation | requests | per command | by status |',
      '|---|---|---|---|',
      ...operations(drain.naive.byOperation, drain.naive.commands),
      '',
    );
  }
  if (resources) {
    const { agent, naive } = resources;
    out.push(
      '## Memory and CPU',
      '',
      'Both contestants compiled to JavaScript (the installed form: our agent as its launcher runs it, node with the',
      "flags of `dist/src/main.js`'s shebang; the baseline with plain node), each against its own",
      'simulator with an ample budget and no added latency, WebSocket on, default poll intervals (2 s, safety net 60 s).',
      `Idle: a plain process, 5 s of warm-up, then ${Math.round(resources.idleMs / 1000)} s idle (CPU = utime + stime from /proc/<pid>/stat),`,
      'then VmRSS; both contestants idle side by side (each CPU figure counts only its own process). Growth: a second',
      'process started with `--inspect=127.0.0.1:0` (a few MB more, the same before and after): VmRSS after 5 s, then',
      `${resources.commands} commands kept flowing (at most ${resources.windows.agent} outstanding for our agent, ${resources.windows.naive} for the baseline,`,
      `which serves one getAllActive page per 2 s pass), ${Math.round(resources.settleMs / 1000)} s of quiet (V8 gives a burst's garbage back in`,
      'steps a few seconds apart once a process is quiet), VmRSS again.',
      '',
      `- our agent: ${agent.finished} commands in ${s(agent.loadWallMs)} (${(agent.finished / (agent.loadWallMs / 1000)).toFixed(0)} commands/s); ${agent.idleRequests} platform requests while idle`,
      `- naive: ${naive.finished} commands in ${s(naive.loadWallMs)} (${(naive.finished / (naive.loadWallMs / 1000)).toFixed(0)} commands/s); ${naive.idleRequests} platform requests while idle`,
      '',
      'In the growth process, after each VmRSS reading the bench forces two full garbage collections through the',
      'DevTools protocol and reads the live V8 heap and VmRSS again ("forced GC" rows). The targets are judged on the',
      'readings taken before that, as a running agent would show them.',
      '',
    );
  }
  if (footprint) {
    out.push(
      '### Where idle memory goes',
      '',
      'VmRSS of a fresh `node` after importing one runtime dependency (forced GC), each in its own process:',
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
