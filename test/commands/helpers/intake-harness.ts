import { ManualClock } from '../../../src/clock.js';
import { Intake, type IntakeOptions } from '../../../src/commands/intake/intake.js';
import type { NormalizedItem } from '../../../src/connector/model.js';
import { silentLogger } from '../../../src/log.js';
import { letPendingWorkRun } from '../../helpers/pending-work.js';
import { FakePlatform } from './fake-platform.js';
import type { FakeSocket } from './fake-socket.js';

export const T = Date.parse('2026-03-10T12:00:00Z');

/**
 * An Intake on a ManualClock over the fake platform. The sink records what it is given; with
 * `accept` it also takes every unknown well-formed item as a new command of ours (and knows it
 * from then on), as the engine's runner would.
 */
export function setupIntake(
  options: Partial<IntakeOptions> & { socket?: FakeSocket; accept?: boolean } = {},
) {
  const { accept = false, ...intakeOptions } = options;
  const clock = new ManualClock(T);
  const platform = new FakePlatform(() => clock.now());
  const ingested: Array<{ via: string; ids: string[] }> = [];
  const said: Array<[string, string]> = [];
  const moved: string[] = [];
  const listed: Array<{ source: string; ids: string[]; since: number }> = [];
  const known = new Set<string>();
  const stillActive: Array<{ ids: string[]; at: number }> = [];
  const unchanged: Array<{ source: string; since: number; at: number; changed: string[] }> = [];
  const intake = new Intake({
    connector: platform,
    clock,
    log: silentLogger,
    poll: { intervalMs: 2000, safetyNetMs: 60_000, fiscalLookbackHours: 72 },
    fiscalDeviceIds: [],
    otherDeviceIds: ['dev-keys-1'],
    debounceMs: 0,
    authPauseMs: 300_000,
    sink: {
      ingest: (items: readonly NormalizedItem[], via: string) => {
        ingested.push({ via, ids: items.map((i) => (i.ok ? i.command.id : (i.id ?? '?'))) });
        if (!accept) return [];
        const fresh = items.flatMap((i) => (i.ok && !known.has(i.command.id) ? [i.command.id] : []));
        for (const id of fresh) known.add(id);
        return fresh;
      },
      platformSays: (id, state) => {
        said.push([id, state]);
        return known.has(id);
      },
      platformMoved: (id) => {
        moved.push(id);
      },
      listedActive: (source, present, since) => {
        listed.push({ source, ids: [...present].sort(), since });
      },
      isKnown: (id) => known.has(id),
      stillActive: (ids, at) => {
        stillActive.push({ ids: [...ids], at });
      },
      unchangedSince: (source, since, at, changed) => {
        unchanged.push({ source, since, at, changed: [...changed].sort() });
      },
    },
    ...intakeOptions,
  });
  const settle = letPendingWorkRun;
  const advance = async (ms: number) => {
    await clock.advance(ms);
    await settle();
  };
  return {
    clock,
    platform,
    intake,
    ingested,
    said,
    moved,
    listed,
    known,
    stillActive,
    unchanged,
    settle,
    advance,
  };
}
