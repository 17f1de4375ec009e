import type { Clock } from '../../clock.js';
import type { ConnectorApi } from '../../connector/api.js';
import type { NormalizedItem } from '../../connector/model.js';
import type { TimeInterval } from '../../connector/wire.js';
import { enterpriseFilter } from './discovery-requests.js';

/**
 * The deep catch-up of fiscal commands. The regular fiscal poll looks `fiscalLookbackHours` back
 * (`UpdatedUtc`), so a command still Pending (never updated) that was created earlier is outside
 * its window. This pass asks `fiscalMachineCommands/getAll` by DeviceIds (groups of ≤100) for
 * Pending and Received commands over the rest of the window the platform allows (`UpdatedUtc` at
 * most 3 months: platform-interfaces.md, Part B › Endpoints › fiscalMachineCommands/getAll
 * parameter sets, and › Limits): from 3 months back to where the regular window begins (with an
 * overlap), so it lists only what the regular poll cannot see. Every page, one request at a time
 * at `discovery` priority: the rate budget serves results and the regular discovery first. The
 * intake runs it at start and every `poll.deepCatchUpHours`.
 */

const HOUR = 3_600_000;
/** The regular poll's window is capped here too: safely inside the 3-month limit. */
export const MAX_WINDOW_MS = 89 * 24 * HOUR;
/** The window ends a little in the future, like the regular poll's (clocks differ). */
const AHEAD_MS = 60_000;
/** The deep window reaches this far into the regular one, so nothing falls between the two. */
const OVERLAP_MS = HOUR;

export interface DeepCatchUpOptions {
  connector: ConnectorApi;
  clock: Clock;
  /** The regular poll's `fiscalLookbackHours`. */
  fiscalLookbackHours: number;
  fiscalDeviceIds: readonly string[];
  enterpriseIds?: readonly string[] | undefined;
  /** Takes one page (the sink filters and deduplicates). */
  ingest: (page: readonly NormalizedItem[]) => void;
  signal: AbortSignal;
  pageSize?: number;
}

/**
 * The `UpdatedUtc` window of a deep pass: from the oldest instant the platform accepts (3 months
 * before the regular window's end) to an hour past the start of the regular window.
 */
export function deepWindow(now: number, fiscalLookbackHours: number): TimeInterval {
  const end = now + AHEAD_MS;
  const regularStart = end - (fiscalLookbackHours * HOUR + AHEAD_MS);
  return {
    StartUtc: new Date(end - MAX_WINDOW_MS).toISOString(),
    EndUtc: new Date(Math.min(end, regularStart + OVERLAP_MS)).toISOString(),
  };
}

/**
 * Whether the regular poll already covers the whole window (then there is nothing deeper to see).
 */
export function lookbackCoversAll(fiscalLookbackHours: number): boolean {
  return fiscalLookbackHours * HOUR + AHEAD_MS >= MAX_WINDOW_MS;
}

/**
 * One deep pass over every fiscal device. Resolves to the number of items seen; rejects with the
 * connector's AgentError (the first failure ends the pass; the next one starts over).
 */
export async function deepCatchUpOnce(options: DeepCatchUpOptions): Promise<number> {
  const { connector, clock, fiscalDeviceIds, enterpriseIds, ingest, signal } = options;
  const window = deepWindow(clock.now(), options.fiscalLookbackHours);
  const enterprise = enterpriseFilter(enterpriseIds);
  let seen = 0;
  for (let i = 0; i < fiscalDeviceIds.length; i += 100) {
    const pages = connector.fiscalCommands(
      {
        DeviceIds: fiscalDeviceIds.slice(i, i + 100),
        States: ['Pending', 'Received'],
        UpdatedUtc: window,
        ...enterprise,
      },
      { priority: 'discovery', signal, pageSize: options.pageSize ?? 100 },
    );
    for await (const page of pages) {
      seen += page.length;
      ingest(page);
    }
  }
  return seen;
}
