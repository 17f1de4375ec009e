import type { CommandState } from '../src/connector/wire.js';
import {
  type PlatformSimulator,
  type ScenarioInput,
  startPlatformSimulator,
} from '../src/platform-simulator/index.js';

/** What a benchmark phase sets up on the platform side. */
export interface PlatformSetup {
  scenario: ScenarioInput;
  /** Simulated round-trip time added to every Connector API request. */
  latencyMs: number;
}

/** Starts the platform simulator of one phase, with its latency fault on. */
export async function startBenchPlatform(setup: PlatformSetup): Promise<PlatformSimulator> {
  const sim = await startPlatformSimulator({ scenario: setup.scenario });
  if (setup.latencyMs > 0) sim.setFaults({ latency: { ms: setup.latencyMs, jitterMs: 0 } });
  return sim;
}

const TERMINAL: readonly CommandState[] = ['Processed', 'Error', 'Cancelled'];

/** Commands in a terminal state right now. */
export function terminalCount(sim: PlatformSimulator): number {
  const counts = sim.stateCounts();
  return TERMINAL.reduce((sum, state) => sum + counts[state], 0);
}

/** Requests the simulator answered, total. */
export function requestTotal(sim: PlatformSimulator): number {
  return sim.counters().requests.total;
}

/** Requests per operation and status between two counter snapshots. */
export function requestsByOperation(
  before: ReturnType<PlatformSimulator['counters']>,
  after: ReturnType<PlatformSimulator['counters']>,
): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [operation, statuses] of Object.entries(after.requests.byOperation)) {
    for (const [status, count] of Object.entries(statuses)) {
      const delta = count - (before.requests.byOperation[operation]?.[status] ?? 0);
      if (delta > 0) out[operation] = { ...out[operation], [status]: delta };
    }
  }
  return out;
}
