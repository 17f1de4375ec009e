import { Backoff } from '../../src/backoff.js';
import type { Clock } from '../../src/clock.js';
import type { Logger } from '../../src/log.js';
import type { CountersRead, CustomLink } from './link.js';
import type { StatusBoard } from './status.js';

/**
 * A printer that went away right after it took a document (switched off, restarting, the
 * network down) is waited for, not given up on: its memory says whether it printed. The counters
 * are read again on the agent's backoff (1 s doubling to 30 s) until the printer answers or
 * `until` passes — the same rule as the Epson family (`drivers/epson-fpmate/settle.ts`). Never throws.
 */
export async function awaitCounters(
  d: { link: CustomLink; clock: Clock; log: Logger; board: StatusBoard },
  until: number,
  signal?: AbortSignal,
): Promise<CountersRead> {
  const backoff = new Backoff({ minMs: 1_000, maxMs: 30_000 });
  let read = await d.link.settleCounters(d.clock, signal);
  if (read.kind !== 'unreachable') return read;
  d.log.warn('the printer went away after a document was sent: waiting for it', { reason: read.reason });
  d.board.awaiting(until);
  try {
    for (;;) {
      const left = until - d.clock.now();
      if (left <= 0 || signal?.aborted) return read;
      try {
        await d.clock.sleep(Math.min(backoff.next(), left), signal);
      } catch {
        return read;
      }
      read = await d.link.settleCounters(d.clock, signal);
      if (read.kind !== 'unreachable') return read;
    }
  } finally {
    d.board.awaiting(undefined);
  }
}
