import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFpmateSimulator } from '../../drivers/epson-fpmate/simulator/index.js';
import { type HistoryEntry, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { createRng } from '../../src/platform-simulator/rng.js';
import { createDaemon, tempDir } from '../helpers/daemon.js';
import { eventually } from '../helpers/eventually.js';
import { ChaosLog } from './chaos.js';
import { deviceProblems, rchPrintedDocs } from './device-invariants.js';
import { errorCode, type LedgerLine } from './invariants-devices.js';
import {
  describe as name,
  platformStateProblems,
  readTrace,
  retryAfterProblems,
  tokenProblems,
} from './invariants-platform.js';
import { compose, type PlannedCommand } from './plan.js';
import type { ReplyMangler } from './reply-mangler.js';
import {
  agentConfig,
  EPSON_SERIAL,
  FAULT_DEVICES,
  FAULT_TOKENS,
  faultScenario,
  LEDGERS,
  startCustomPrinter,
  startFiasSite,
  startRchPrinter,
  startSaltoSite,
} from './rig.js';
import { Traffic } from './traffic.js';

/**
 * The hostile-input campaign (issue 13): the fault campaign's world (`rig.ts`: the real daemon,
 * the platform simulator, the RT printer behind its proxy, the Salto encoder, simulated devices)
 * while everything that once crashed, stopped, silenced or fooled the agent happens in turn —
 *
 * - a captive portal answers `200` with an HTML page instead of the platform;
 * - a gzip bomb (600 KB inflating to 600 MB) answers instead of the platform;
 * - the RT printer answers 300 MB;
 * - poisoned commands: `FiscalMachineData` / `KeyCutterData` nested 10,000 deep;
 * - a 429 with `Retry-After: 86400` (the agent caps it at 4 s here, then probes once);
 *
 * among a mixed run of well-formed and malformed commands. Then the invariants: every command of
 * ours terminal, the poisoned ones in Error as COMMAND_INVALID, no fiscal document twice, no key
 * job twice unreported, nothing sent inside the capped `Retry-After` and the agent never silenced
 * longer than the cap, no token in the log, no crash signature, the daemon never exited, and
 * healthy again at the end.
 *
 * A campaign file of its own beside `campaign.test.ts`, reusing its world, so the two can evolve
 * apart. Deterministic by construction, as the fault campaign: the commands are fed as the agent
 * finishes them (`traffic.ts`), and each fault is on until the agent has met it a counted number
 * of times (three captive-portal answers, two gzip bombs, two flooded printer answers, two 429s
 * asking for a day), never for some seconds; "nothing sent inside the capped Retry-After" is
 * judged on the daemon's own clock (`http-trace.ts`), and "never silenced" by the probe arriving
 * at all (a day-long silence would never let it come).
 */

const SEED = Number(process.env.HOSTILE_SEED ?? 20_261_313);
/** Owned commands unfinished at once while the composition is fed. */
const WINDOW = 12;
const RETRY_AFTER_CAP_S = 4;
const POISONED = 4;
const FLOOD_BYTES = 300 * 1024 * 1024;

function readLedger(path: string): LedgerLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as LedgerLine);
}

/** Lines that only a crash, a stack overflow or an escaped error would print. */
function crashProblems(lines: readonly string[]): string[] {
  const signatures = [/Maximum call stack/, /ERR_STRING_TOO_LONG/, /escaped every handler/, /JOURNAL_ERROR/];
  return lines
    .filter((line) => signatures.some((s) => s.test(line)))
    .map((line) => `[no crash signature] the daemon printed: ${line.slice(0, 200)}`);
}

describe('hostile-input campaign against the real daemon', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  });

  it('keeps every invariant through a captive portal, a gzip bomb, a 300 MB printer answer, poisoned commands and Retry-After: 86400', async () => {
    const rng = createRng(SEED);
    const dir = tempDir('frontdesk-hostile');
    const platform = await startPlatformSimulator({ scenario: faultScenario(SEED, 80) });
    closers.push(() => platform.close());
    const printer = await startFpmateSimulator({ serial: EPSON_SERIAL });
    closers.push(() => printer.close());
    const salto = await startSaltoSite();
    closers.push(() => salto.close());
    const fias = await startFiasSite();
    closers.push(() => fias.close());
    const custom = await startCustomPrinter();
    closers.push(() => custom.close());
    const rch = await startRchPrinter();
    closers.push(() => rch.close());
    // The RT printer is reached directly here: the campaign's proxy reads a whole answer before it
    // forwards it, and would hold every 300 MB answer in this process.
    const direct = { url: printer.url } as ReplyMangler;
    const config = agentConfig({ dir, platform, printer, mangler: direct, salto, fias, custom, rch });
    config.platform = {
      ...config.platform,
      rateLimit: { ...config.platform.rateLimit, maxRetryAfterSeconds: RETRY_AFTER_CAP_S },
    } as typeof config.platform;
    const tracePath = join(dir, 'http-trace.jsonl');
    const daemon = createDaemon({
      config,
      env: {
        FRONTDESK_CLIENT_TOKEN: FAULT_TOKENS.clientToken,
        FRONTDESK_ACCESS_TOKEN: FAULT_TOKENS.accessToken,
        FRONTDESK_TEST_HTTP_TRACE: tracePath,
      },
      preload: [join(import.meta.dirname, 'http-trace.ts')],
    });
    closers.push(() => daemon.stop(5000));
    await daemon.start();

    const reservations = platform.world.reservations.map((r) => ({ id: r.id, number: r.number }));
    const specs = compose(rng, { wellFormed: 96, malformed: 24, huge: 2, printer: 6 });
    const poisoned = [
      {
        kind: 'fiscal-data' as const,
        deviceId: FAULT_DEVICES.simFiscalA,
        malformed: 'deep-nesting' as const,
      },
      { kind: 'fiscal-payload' as const, deviceId: FAULT_DEVICES.epson, malformed: 'deep-nesting' as const },
      { kind: 'keys' as const, deviceId: FAULT_DEVICES.salto, malformed: 'deep-nesting' as const },
      {
        kind: 'fiscal-data' as const,
        deviceId: FAULT_DEVICES.simFiscalB,
        malformed: 'deep-nesting' as const,
      },
    ];
    for (const [i, spec] of poisoned.entries()) specs.splice(5 + i * 25, 0, spec);
    let flooding = false;
    let floodedAnswers = 0;
    const stopCounting = printer.onHandled(() => {
      if (flooding) floodedAnswers++;
    });
    closers.push(async () => stopCounting());
    const t0 = Date.now();
    const traffic = new Traffic({ platform }, rng, reservations);
    const met = () => platform.counters().faults;
    /** Each fault on until the agent has met it `times` times, keeping a device at work meanwhile. */
    const acts = async () => {
      await traffic.progress(6, FAULT_DEVICES.simFiscalA);
      const portal = met()['captive-portal'] + 3;
      platform.setFaults({ captivePortal: { next: 3, every: 2 } });
      await traffic.until(
        '3 captive-portal answers',
        () => met()['captive-portal'] >= portal,
        FAULT_DEVICES.simKeys,
      );

      await traffic.progress(6, FAULT_DEVICES.simFiscalA);
      const bombs = met()['gzip-bomb'] + 2;
      platform.setFaults({ gzipBomb: { next: 2, every: 2 } });
      await traffic.until('2 gzip bombs', () => met()['gzip-bomb'] >= bombs, FAULT_DEVICES.simKeys);

      await traffic.progress(6, FAULT_DEVICES.simFiscalA);
      flooding = true;
      await printer.setFault('oversizedAnswer', { bytes: FLOOD_BYTES });
      await traffic.until('2 flooded printer answers', () => floodedAnswers >= 2, FAULT_DEVICES.epson);
      flooding = false;
      await printer.setFault('oversizedAnswer', false);

      await traffic.progress(6, FAULT_DEVICES.simFiscalA);
      const limited = platform.requestLog().length;
      platform.setFaults({ rateLimitBurst: { next: 2, retryAfterSeconds: 86_400 } });
      // Never silenced: after the two 429s the probe comes (a day-long silence never would).
      await traffic.until(
        'two 429s asking for a day, then a request answered again',
        () => {
          const after = platform.requestLog().slice(limited);
          const last429 = after.findLastIndex((r) => r.status === 429 && r.retryAfterSeconds === 86_400);
          return (
            after.filter((r) => r.retryAfterSeconds === 86_400).length >= 2 &&
            after.slice(last429 + 1).some((r) => r.status === 200)
          );
        },
        FAULT_DEVICES.simFiscalA,
      );
    };
    await Promise.all([traffic.feed(specs, WINDOW, new ChaosLog(t0)), acts()]);
    const planned = traffic.planned;

    const owned = planned.filter((c) => c.owned);
    const isDone = (c: PlannedCommand) =>
      ['Processed', 'Error', 'Cancelled'].includes(platform.command(c.id)?.state ?? '');
    await eventually('every owned command to be terminal', () => owned.every(isDone), {
      intervalMs: 250,
    }).catch(
      () => undefined, // the invariants below name the ones left
    );
    // Healthy again once the faults are over (the intake and the platform answer).
    const healthy = await eventually(
      '/healthz 200 after the faults',
      async () => (await fetch(`${daemon.statusUrl()}/healthz`)).status === 200,
      { intervalMs: 250 },
    ).then(
      () => true,
      () => false,
    );
    const endedAt = Date.now();
    const exitCode = await daemon.stop(10_000);

    const histories = new Map<string, HistoryEntry[]>(planned.map((c) => [c.id, platform.history(c.id)]));
    const finals: Record<string, number> = {};
    for (const c of planned) {
      const state = histories.get(c.id)?.at(-1)?.state ?? 'none';
      finals[state] = (finals[state] ?? 0) + 1;
    }
    console.info(
      `hostile-input campaign, seed ${SEED}: ${planned.length} commands, final states ${JSON.stringify(finals)}, ` +
        `faults ${JSON.stringify(platform.counters().faults)}, printer flood ${printer.oversizedBytesWritten} bytes over ${floodedAnswers} answers, ` +
        `${((endedAt - t0) / 1000).toFixed(0)} s`,
    );
    const ledger = (device: keyof typeof LEDGERS) => readLedger(join(dir, LEDGERS[device]));
    const problems = [
      ...platformStateProblems(planned, histories),
      ...planned
        .filter((c) => c.malformed === 'deep-nesting')
        .flatMap((c) => {
          const last = histories.get(c.id)?.at(-1);
          return last?.state === 'Error' && errorCode(last.notes) === 'COMMAND_INVALID'
            ? []
            : [`[a poisoned command ends COMMAND_INVALID] ${name(c)} ended ${last?.state}: ${last?.notes}`];
        }),
      ...deviceProblems({
        planned,
        histories,
        ledger,
        printed: printer.printed,
        customPrinted: custom.printed,
        rchPrinted: rchPrintedDocs(rch.documents),
        saltoWritten: salto.sim.cards,
        fiasWritten: fias.sim.cards,
      }),
      ...retryAfterProblems(
        readTrace(existsSync(tracePath) ? readFileSync(tracePath, 'utf8') : ''),
        RETRY_AFTER_CAP_S,
      ),
      ...tokenProblems(daemon.lines, [FAULT_TOKENS.clientToken, FAULT_TOKENS.accessToken]),
      ...crashProblems(daemon.lines),
      ...(daemon.exits.length === 1 && exitCode === 0
        ? []
        : [`[exits only when stopped] the daemon's runs ended ${JSON.stringify(daemon.exits)}`]),
      ...(healthy ? [] : ['[healthy again] /healthz stayed 503 after the faults were over']),
    ];
    if (problems.length > 0) writeFileSync(join(dir, 'daemon.log'), `${daemon.lines.join('\n')}\n`);
    expect(problems, `invariants broken (seed ${SEED}; daemon log in ${join(dir, 'daemon.log')})`).toEqual(
      [],
    );

    // The campaign really did what it claims (a silent no-op must not pass).
    const faults = platform.counters().faults;
    const longRetryAfter = platform
      .requestLog()
      .filter((r) => r.status === 429 && r.retryAfterSeconds === 86_400);
    expect({
      captivePortal: faults['captive-portal'] > 0,
      gzipBomb: faults['gzip-bomb'] > 0,
      oversizedPrinterAnswer: printer.oversizedBytesWritten > 0,
      // The agent hangs up after its 256 KiB cap: each flooded answer got far less than its 300 MB.
      printerAnswerCutOff: printer.oversizedBytesWritten / Math.max(1, floodedAnswers) < FLOOD_BYTES / 10,
      longRetryAfter: longRetryAfter.length > 0,
      poisoned: planned.filter((c) => c.malformed === 'deep-nesting').length === POISONED,
      processed: owned.filter((c) => histories.get(c.id)?.at(-1)?.state === 'Processed').length > 50,
    }).toEqual({
      captivePortal: true,
      gzipBomb: true,
      oversizedPrinterAnswer: true,
      printerAnswerCutOff: true,
      longRetryAfter: true,
      poisoned: true,
      processed: true,
    });
  }, 240_000);
});
