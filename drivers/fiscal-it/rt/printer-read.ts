import { Backoff, type BackoffRange } from '../../../src/backoff.js';
import type { Clock } from '../../../src/clock.js';
import type { Logger } from '../../../src/log.js';
import type { Message } from '../../../src/messages/message.js';

/**
 * One read of what a printer keeps (its witnesses, `witnesses.ts`), as every RT family reports
 * it:
 * - `read`: the printer answered; `evidence` is the family's reading (parts of it may be
 *   unreadable: the family's witnesses say so);
 * - `busy`: it answered that it is busy (Epson `LAN_TIME_OUT`, Custom's busy statuses) — asked
 *   again a few times (`readPatiently`);
 * - `away`: nothing answered, or the web service answered that the fiscal unit behind it is
 *   silent (Epson `FP_NO_ANSWER`): a printer switched off or restarting — waited for
 *   (`awaitPrinter`), never taken as "not printed";
 * - `unreadable`: it answered what the family cannot read at all.
 */
export type PrinterRead<E> =
  | { kind: 'read'; evidence: E }
  | { kind: 'busy'; code: string }
  | { kind: 'away'; reason: string }
  | { kind: 'unreadable'; what: string };

export type ReadWitnesses<E> = (signal?: AbortSignal) => Promise<PrinterRead<E>>;

export interface BusyPolicy {
  /** How often a busy printer is asked again. */
  busyRetries: number;
  busyRetryDelayMs: number;
}

/** Reads again while the printer answers busy, `busyRetries` times at most. Never throws. */
export async function readPatiently<E>(
  read: ReadWitnesses<E>,
  clock: Clock,
  policy: BusyPolicy,
  signal?: AbortSignal,
): Promise<PrinterRead<E>> {
  for (let attempt = 0; ; attempt++) {
    const result = await read(signal);
    if (result.kind !== 'busy' || attempt >= policy.busyRetries) return result;
    try {
      await clock.sleep(policy.busyRetryDelayMs, signal);
    } catch {
      return result;
    }
  }
}

/** The agent's backoff between two reads of a printer that went away (1 s doubling to 30 s). */
export const SETTLE_BACKOFF: BackoffRange = { minMs: 1_000, maxMs: 30_000 };

/** What the wait shows on the status page. */
export interface WaitBoard {
  unreachable(reason: string): void;
  /** The page's warning while a document waits for the printer; undefined when it no longer does. */
  awaiting(warning: Message | undefined): void;
}

export interface PrinterWait {
  /** Epoch ms after which the reads stop. */
  until: number;
  warning: Message;
  signal?: AbortSignal | undefined;
}

/**
 * A vanished printer is settled, not failed (issue 26): a document was sent, its answer never
 * came, and the printer cannot be read either — switched off or restarting right after it took
 * the document (fiskaltrust `scu-it` `Utilities/EpsonCommandFactory.cs` `RebootCommand`: a
 * restarting printer leaves its request unanswered). Whether it printed is in its memory, so the
 * witnesses are read again on the agent's one backoff until the printer answers or `wait.until`
 * passes, with a warning on the page meanwhile. A printer that answers — busy, or with something
 * unreadable — is not away: that read is handed back at once. Never throws.
 */
export async function awaitPrinter<E>(
  read: () => Promise<PrinterRead<E>>,
  d: { clock: Clock; log: Logger; board: WaitBoard },
  wait: PrinterWait,
): Promise<PrinterRead<E>> {
  const backoff = new Backoff(SETTLE_BACKOFF);
  let result = await read();
  if (result.kind !== 'away') return result;
  d.log.warn('the printer went away after a document was sent: waiting for it to settle the document', {
    reason: result.reason,
    waitMs: Math.max(0, wait.until - d.clock.now()),
  });
  try {
    for (;;) {
      d.board.unreachable(result.reason);
      const left = wait.until - d.clock.now();
      if (left <= 0 || wait.signal?.aborted) return result;
      d.board.awaiting(wait.warning);
      try {
        await d.clock.sleep(Math.min(backoff.next(), left), wait.signal);
      } catch {
        return result;
      }
      result = await read();
      if (result.kind !== 'away') {
        d.log.info('the printer answers again: settling the document from its memory', {
          attempts: backoff.failures,
        });
        return result;
      }
    }
  } finally {
    d.board.awaiting(undefined);
  }
}
