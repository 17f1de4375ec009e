import type { HistoryEntry, PlatformSimulator } from '../src/platform-simulator/index.js';

/**
 * Figures read from the simulator's command histories (its own clock, so they include the
 * simulated round trip and nothing of the bench's sampling).
 */

const TERMINAL = new Set(['Processed', 'Error', 'Cancelled']);

/** Created → first Received, in ms; undefined when the command never showed Received. */
export function pickupMs(history: readonly HistoryEntry[]): number | undefined {
  const created = history[0];
  const received = history.find((e) => e.state === 'Received');
  if (!created || !received) return undefined;
  return Date.parse(received.at) - Date.parse(created.at);
}

/** Epoch ms of the first terminal entry; undefined while the command is active. */
export function terminalAt(history: readonly HistoryEntry[]): number | undefined {
  const entry = history.find((e) => TERMINAL.has(e.state));
  return entry ? Date.parse(entry.at) : undefined;
}

/**
 * The drain curve of `ids`: seconds since `startMs` at which each command became terminal,
 * sorted, as `[seconds, commandsTerminal]` points (one per command).
 */
export function drainCurve(
  sim: PlatformSimulator,
  ids: readonly string[],
  startMs: number,
): Array<[number, number]> {
  const times = ids
    .map((id) => terminalAt(sim.history(id)))
    .filter((t): t is number => t !== undefined)
    .sort((a, b) => a - b);
  return times.map((t, i) => [(t - startMs) / 1000, i + 1]);
}
