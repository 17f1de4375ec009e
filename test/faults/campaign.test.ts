import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src/simulator/index.js';
import { createRng } from '../../src/simulator/rng.js';
import { eventually } from '../helpers/daemon.js';
import { ChaosLog, faultTimeline, killLoop, playTimeline, QUIET_SPANS } from './chaos.js';
import {
  epsonProblems,
  keyProblems,
  type LedgerLine,
  ledgerCards,
  saltoCards,
  simFiscalProblems,
} from './invariants-devices.js';
import {
  exitProblems,
  platformStateProblems,
  retryAfterProblems,
  tokenProblems,
} from './invariants-platform.js';
import { compose, createPlanned, type PlannedCommand } from './plan.js';
import { FAULT_DEVICES, FAULT_TOKENS, LEDGERS, type Rig, startRig } from './rig.js';

/**
 * The fault campaign: a mixed fiscal and encoder run against the real daemon while everything
 * goes wrong — ≥ 20 kill -9 at seeded random points (some during start-up and recovery), a
 * platform outage, two 429 storms, WebSocket flapping, connection resets and hangs, an RT printer
 * out of paper / busy / dropping its answer after printing / refusing connections / answering
 * garbage, an encoder unplugged (also mid-card) and answering garbage, and 220 malformed
 * commands. Then the invariants, each failure naming the command and the invariant it broke.
 *
 * Deterministic in what it does (seed, composition, timeline, kill points); the interleaving with
 * the daemon's own timing is whatever the machine gives, which is the point.
 */

const SEED = Number(process.env.FAULT_SEED ?? 20_261_121);
const CREATE_EVERY_MS = 150;
const COMPOSITION = { wellFormed: 270, malformed: 220, huge: 8, printer: 20 };

function readLedger(path: string): LedgerLine[] {
  if (!existsSync(path)) return [];
  const out: LedgerLine[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as LedgerLine);
    } catch {
      // a line torn by kill -9 is not a document
    }
  }
  return out;
}

describe('fault campaign against the real daemon', () => {
  let rig: Rig | undefined;

  afterAll(async () => {
    await rig?.close();
  });

  it('keeps every invariant through kills, outages, 429 storms, flapping, device faults and garbage', async () => {
    const rng = createRng(SEED);
    rig = await startRig(SEED, 200);
    const { platform, daemon, printer, salto, mangler, dir } = rig;
    const reservations = platform.world.reservations.map((r) => ({ id: r.id, number: r.number }));
    const specs = compose(rng, COMPOSITION);
    const log = new ChaosLog(Date.now());
    const planned: PlannedCommand[] = [];
    let creating = true;

    const create = async () => {
      for (const spec of specs) {
        planned.push(createPlanned(platform, spec, rng, reservations));
        await new Promise((r) => setTimeout(r, CREATE_EVERY_MS));
      }
      creating = false;
      log.note(`all ${planned.length} commands created`);
    };
    const [killedAt] = await Promise.all([
      killLoop(
        daemon,
        createRng(SEED + 1),
        { minKills: 22, keepGoing: () => creating, quiet: QUIET_SPANS },
        log,
      ),
      create(),
      playTimeline(faultTimeline(rig), log),
    ]);

    const owned = planned.filter((c) => c.owned);
    const isDone = (c: PlannedCommand) => {
      const state = platform.command(c.id)?.state;
      return state === 'Processed' || state === 'Error' || state === 'Cancelled';
    };
    await eventually(() => owned.every(isDone), 60_000, 'every owned command to be terminal', 250).catch(
      () => undefined, // the invariants below name the ones left
    );
    log.note('settled');
    expect(await daemon.stop(10_000)).toBe(0);

    const histories = new Map<string, HistoryEntry[]>(planned.map((c) => [c.id, platform.history(c.id)]));
    const finals: Record<string, number> = {};
    for (const c of planned) {
      const state = histories.get(c.id)?.at(-1)?.state ?? 'none';
      finals[state] = (finals[state] ?? 0) + 1;
    }
    console.info(
      `fault campaign, seed ${SEED}: ${planned.length} commands (${planned.filter((c) => c.malformed).length} malformed), ` +
        `${killedAt.length} kills, final states ${JSON.stringify(finals)}, Epson documents ${printer.printed.length}, ` +
        `Salto cards ${salto.sim.cards.length}, 429 answers ${platform.counters().rateLimited}, ` +
        `${((Date.now() - log.t0) / 1000).toFixed(0)} s`,
    );
    const on = (...devices: string[]) => planned.filter((c) => devices.includes(c.deviceId));
    const ledger = (device: keyof typeof LEDGERS) => readLedger(join(dir, LEDGERS[device]));
    const problems = [
      ...platformStateProblems(planned, histories),
      ...simFiscalProblems(
        on(FAULT_DEVICES.simFiscalA, FAULT_DEVICES.simFiscalB),
        [...ledger(FAULT_DEVICES.simFiscalA), ...ledger(FAULT_DEVICES.simFiscalB)],
        histories,
      ),
      ...epsonProblems(on(FAULT_DEVICES.epson), printer.printed, histories),
      ...keyProblems(
        on(FAULT_DEVICES.simKeys),
        ledgerCards(ledger(FAULT_DEVICES.simKeys)),
        histories,
        'Encoder sim',
      ),
      ...keyProblems(
        on(FAULT_DEVICES.salto),
        saltoCards(on(FAULT_DEVICES.salto), salto.sim.cards),
        histories,
        'Encoder Salto',
      ),
      ...retryAfterProblems(platform.requestLog(), killedAt, 500),
      ...tokenProblems(daemon.lines, [FAULT_TOKENS.clientToken, FAULT_TOKENS.accessToken]),
      ...exitProblems(daemon.exits, killedAt.length),
    ];
    if (problems.length > 0) writeFileSync(join(dir, 'daemon.log'), `${daemon.lines.join('\n')}\n`);
    expect(
      problems,
      `invariants broken (seed ${SEED}; daemon log in ${join(dir, 'daemon.log')}); what happened:\n${log}`,
    ).toEqual([]);

    // The campaign really did what it claims (a silent no-op must not pass).
    const faults = platform.counters().faults;
    const printedDocs = printer.printed.filter((d) => d.kind === 'sale').length;
    expect({
      kills: killedAt.length >= 20,
      malformed: planned.filter((c) => c.malformed).length >= 200,
      burst429: faults['rate-limit-burst'] >= 6,
      outage503: faults['server-error'] > 0,
      resets: faults.reset > 0,
      websocketDrops: faults['websocket-drop'] > 0,
      epsonPrinted: printedDocs > 0,
      epsonAnswersMangled: mangler.mangled > 0,
      saltoCardsCut: salto.sim.cards.length > 0,
      saltoGarbage: salto.sim.requests.some((r) => r.behaviour === 'garbage'),
      processed: owned.filter((c) => histories.get(c.id)?.at(-1)?.state === 'Processed').length > 100,
    }).toEqual({
      kills: true,
      malformed: true,
      burst429: true,
      outage503: true,
      resets: true,
      websocketDrops: true,
      epsonPrinted: true,
      epsonAnswersMangled: true,
      saltoCardsCut: true,
      saltoGarbage: true,
      processed: true,
    });
  }, 200_000);
});
