import { ManualClock } from '../../../src/clock.js';
import { createEngine } from '../../../src/commands/engine.js';
import { type Journal, openJournal } from '../../../src/commands/journal/journal.js';
import type { Engine, EngineDevice, EngineTuning } from '../../../src/commands/types.js';
import { createMemoryLogger } from '../../../src/log.js';
import type { AgentEvent } from '../../../src/status-model.js';
import { letPendingWorkRun } from '../../helpers/pending-work.js';
import { FISCAL_DEVICE, KEY_DEVICE, PRINTER_DEVICE } from './commands.js';
import { FakePlatform } from './fake-platform.js';
import { FakeSocket } from './fake-socket.js';
import { ScriptedDriver } from './scripted-driver.js';

/** Ten seconds after the default `CreatedUtc` of the test commands. */
export const T0 = Date.parse('2026-01-01T00:00:10Z');

export interface HarnessOptions {
  socket?: boolean;
  /** Reuse a journal (restart scenarios) or a file path. */
  journal?: Journal;
  journalPath?: string;
  clock?: ManualClock;
  platform?: FakePlatform;
  drivers?: Partial<Record<'keys' | 'printer' | 'fiscal', ScriptedDriver>>;
  tuning?: Partial<EngineTuning>;
  /** The polls' periods (default: a poll every 2 s, the safety net every 60 s, 72 h back). */
  poll?: { intervalMs: number; safetyNetMs: number; fiscalLookbackHours: number };
}

export type Harness = ReturnType<typeof harness>;

/** An engine on a ManualClock with the fake platform, a fake socket and scripted drivers. */
export function harness(options: HarnessOptions = {}) {
  const clock = options.clock ?? new ManualClock(T0);
  const platform = options.platform ?? new FakePlatform(() => clock.now());
  const socket = options.socket ? new FakeSocket() : undefined;
  const journal =
    options.journal ?? openJournal(options.journalPath ?? ':memory:', { now: () => clock.now() });
  const drivers = {
    keys: options.drivers?.keys ?? new ScriptedDriver(),
    printer: options.drivers?.printer ?? new ScriptedDriver(),
    fiscal: options.drivers?.fiscal ?? new ScriptedDriver(),
  };
  const devices: EngineDevice[] = [
    {
      id: KEY_DEVICE.Id,
      name: KEY_DEVICE.Name,
      type: 'KeyCutter',
      driverKind: 'scripted',
      driver: drivers.keys,
    },
    {
      id: PRINTER_DEVICE.Id,
      name: PRINTER_DEVICE.Name,
      type: 'Printer',
      driverKind: 'scripted',
      driver: drivers.printer,
    },
    {
      id: FISCAL_DEVICE.Id,
      name: FISCAL_DEVICE.Name,
      type: 'FiscalMachine',
      driverKind: 'scripted',
      driver: drivers.fiscal,
    },
  ];
  const events: AgentEvent[] = [];
  const log = createMemoryLogger();
  const engine: Engine = createEngine({
    journal,
    connector: platform,
    ...(socket ? { socket } : {}),
    devices,
    clock,
    log,
    poll: options.poll ?? { intervalMs: 2000, safetyNetMs: 60_000, fiscalLookbackHours: 72 },
    onEvent: (e) => events.push(e),
    tuning: { ...options.tuning },
  });

  /**
   * Lets every pending promise chain run (no clock time passes), and waits for the journal's
   * syncs in flight: they run in libuv's pool and take real time (long on a loaded disk), which
   * no step of the manual clock stands in for — without this, `until` could spend its clock
   * budget before a delivery's flush returned (seen on a loaded 2-core machine).
   */
  const settle = async () => {
    await letPendingWorkRun();
    await journal.syncsSettled();
    await letPendingWorkRun();
  };
  /** Moves the clock in steps, settling after each. */
  const advance = async (ms: number, step = 100) => {
    for (let done = 0; done < ms; done += step) {
      await clock.advance(Math.min(step, ms - done));
      await settle();
    }
    if (ms === 0) await settle();
  };
  /** Advances until `condition` holds; fails the test after `maxMs` of clock time. */
  const until = async (condition: () => boolean, what: string, maxMs = 120_000, step = 100) => {
    await settle();
    for (let t = 0; !condition(); t += step) {
      if (t > maxMs) throw new Error(`timed out waiting for ${what}`);
      await clock.advance(step);
      await settle();
    }
  };
  const transitions = (id: string) =>
    events.flatMap((e) => (e.type === 'transition' && e.commandId === id ? [e.to] : []));

  return {
    clock,
    platform,
    socket,
    journal,
    drivers,
    devices,
    engine,
    events,
    log,
    settle,
    advance,
    until,
    transitions,
  };
}
