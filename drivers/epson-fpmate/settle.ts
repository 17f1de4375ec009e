import { Backoff, type BackoffRange } from '../../src/backoff.js';
import type { Clock } from '../../src/clock.js';
import type { Logger } from '../../src/log.js';
import type { Message } from '../../src/messages/message.js';
import type { CountersRead, PrinterLink } from './link.js';
import type { StatusBoard } from './status.js';

/**
 * A vanished printer is settled, not failed (issue 26). A fiscal document was sent, its answer
 * never came, and the printer cannot be read either: the connection is refused, reset or times
 * out, or fpmate answers that the fiscal unit behind it is silent (`FP_NO_ANSWER` …, link.ts
 * `silent`) — a printer switched off or restarting right after it took the document (fiskaltrust
 * `Utilities/EpsonCommandFactory.cs` `RebootCommand`: a restarting printer leaves its request
 * unanswered). Whether it printed is in its memory, so the driver does not give up at once: it
 * reads the counters again, on the agent's one backoff (1 s doubling to 30 s), until they answer
 * or `settleUnansweredForMinutes` has passed, with a warning on the status page meanwhile. Only
 * then is the outcome unknown.
 *
 * A printer that answers — even with a record this driver cannot read, or busy — is not away:
 * the read is handed back as it is and the counters' rules decide at once (recovery.ts).
 */

/** The agent's backoff between two reads of a printer that went away. */
export const SETTLE_BACKOFF: BackoffRange = { minMs: 1_000, maxMs: 30_000 };

/** Whether a read got no answer from the printer's fiscal memory at all. */
export function isAway(
  read: CountersRead,
): read is Extract<CountersRead, { kind: 'unreachable' | 'silent' }> {
  return read.kind === 'unreachable' || read.kind === 'silent';
}

export interface SettleDeps {
  link: PrinterLink;
  clock: Clock;
  board: StatusBoard;
  log: Logger;
}

export interface SettleWait {
  /** Epoch ms after which the reads stop. */
  until: number;
  /** The status page's warning while waiting. */
  warning: Message;
  signal?: AbortSignal | undefined;
}

/**
 * Reads the printer's last document (`directIO 1387`, patiently while it is busy) until the
 * printer answers, `wait.until` passes or `wait.signal` fires; resolves the last read. Never
 * throws. The status page shows `wait.warning` while it waits.
 */
export async function awaitCounters(d: SettleDeps, wait: SettleWait): Promise<CountersRead> {
  const backoff = new Backoff(SETTLE_BACKOFF);
  let read = await d.link.settleCounters(d.clock, wait.signal);
  if (!isAway(read)) return read;
  d.log.warn('the printer went away after a document was sent: waiting for it to settle the document', {
    reason: read.kind === 'silent' ? read.code : read.reason,
    waitMs: Math.max(0, wait.until - d.clock.now()),
  });
  try {
    for (;;) {
      d.board.unreachable(read.kind === 'silent' ? read.code : read.reason);
      const left = wait.until - d.clock.now();
      if (left <= 0 || wait.signal?.aborted) return read;
      d.board.awaiting(wait.warning);
      try {
        await d.clock.sleep(Math.min(backoff.next(), left), wait.signal);
      } catch {
        return read;
      }
      read = await d.link.settleCounters(d.clock, wait.signal);
      if (!isAway(read)) {
        d.log.info('the printer answers again: settling the document from its counters', {
          attempts: backoff.failures,
        });
        return read;
      }
    }
  } finally {
    d.board.awaiting(undefined);
  }
}
