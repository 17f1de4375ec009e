import { type Clock, systemClock } from '../clock.js';
import type { Logger } from '../log.js';
import { errorFields, silentLogger } from '../log.js';
import { runPeriodically } from '../periodic.js';
import { eventLoopLagProbe, type LagProbe } from './loop-lag.js';
import type { Notifier } from './sd-notify.js';

/**
 * The systemd watchdog (`WatchdogSec=`): `WATCHDOG=1` is sent every `intervalMs` only while the
 * agent is really alive — its event loop responsive and `isHealthy()` true. A stuck loop sends
 * nothing by construction; a sluggish one (lag above `maxLagMs` since the previous ping) or an
 * unhealthy agent withholds the ping, and systemd restarts the service once `WatchdogSec` passes
 * without one.
 */

/**
 * The ping interval for the environment systemd gave the agent: half of `WATCHDOG_USEC`, in ms.
 * Undefined when the watchdog is off, the value is not a positive integer, or `WATCHDOG_PID`
 * names another process (the variables were inherited, not meant for us).
 */
export function watchdogInterval(
  env: { WATCHDOG_USEC?: string | undefined; WATCHDOG_PID?: string | undefined },
  pid: number,
): number | undefined {
  if (env.WATCHDOG_PID !== undefined && env.WATCHDOG_PID.trim() !== '' && Number(env.WATCHDOG_PID) !== pid) {
    return undefined;
  }
  const raw = env.WATCHDOG_USEC?.trim();
  if (!raw || !/^\d+$/.test(raw)) return undefined;
  const usec = Number(raw);
  if (!Number.isSafeInteger(usec) || usec <= 0) return undefined;
  return Math.max(1, Math.floor(usec / 2000));
}

export { eventLoopLagProbe, type LagProbe } from './loop-lag.js';

export interface WatchdogOptions {
  notifier: Pick<Notifier, 'watchdog'>;
  /** Time between pings: `watchdogInterval()` of the environment. */
  intervalMs: number;
  /**
   * The agent's own liveness (its loops progress, its journal is writable). Keep external
   * conditions out of it — a platform outage or an unplugged printer is not cured by a restart,
   * and a false here gets the agent killed within `WatchdogSec`. A throw counts as false.
   */
  isHealthy: () => boolean;
  /** Loop lag above which a ping is withheld. Default: half the interval, at least 200 ms, at most 5 s. */
  maxLagMs?: number;
  clock?: Clock;
  /** Default: a reader of the process's one lag probe (`loop-lag.ts`) at a tenth of `maxLagMs` (20–500 ms). */
  lagProbe?: LagProbe;
  log?: Logger;
}

export interface Watchdog {
  /** Stops pinging. Idempotent. */
  stop(): void;
}

/** Starts the ping loop; the first ping goes out at once when the agent is healthy. */
export function startWatchdog(options: WatchdogOptions): Watchdog {
  const { notifier, intervalMs, isHealthy } = options;
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const maxLagMs = options.maxLagMs ?? Math.min(5000, Math.max(200, intervalMs / 2));
  // A tenth of the lag that matters is resolution enough; a finer timer only costs idle CPU.
  const probe = options.lagProbe ?? eventLoopLagProbe(Math.min(500, Math.max(20, maxLagMs / 10)));
  const controller = new AbortController();
  let withheld: string | undefined;

  const healthy = (): boolean => {
    try {
      return isHealthy();
    } catch {
      return false;
    }
  };

  const decide = (lagMs: number) => {
    const reason =
      lagMs > maxLagMs ? `event loop lag ${Math.round(lagMs)} ms` : healthy() ? undefined : 'agent unhealthy';
    if (reason === undefined) {
      if (withheld !== undefined) log.info('watchdog pings resumed');
      withheld = undefined;
      notifier.watchdog();
    } else if (withheld !== reason) {
      withheld = reason;
      log.warn('watchdog ping withheld', { reason });
    }
  };

  // The first check runs at start; each later one also counts how late its wake-up came.
  let expected: number | undefined;
  void runPeriodically(
    () => {
      const now = clock.now();
      const lagMs = expected === undefined ? 0 : Math.max(0, now - expected, probe.sampleMs());
      expected = now + intervalMs;
      decide(lagMs);
    },
    {
      clock,
      signal: controller.signal,
      intervalMs,
      onError: (e) => log.warn('watchdog check failed', errorFields(e)),
    },
  );

  return {
    stop() {
      if (controller.signal.aborted) return;
      controller.abort();
      probe.stop();
    },
  };
}
