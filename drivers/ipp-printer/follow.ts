import type { Clock } from '../../src/clock.js';
import type { JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import { type Message, readMessage } from '../../src/messages/message.js';
import { pollUntil } from '../../src/periodic.js';
import type { IppPrinterOptions } from './config.js';
import { IppTransportError, isSuccess, transportWords } from './ipp-client.js';
import { JobState, PrinterState, Status } from './ipp-constants.js';
import { ippJobStates, ippMessages } from './messages.js';
import type { IppOperations, JobInfo, PrinterInfo } from './operations.js';
import type { PrinterTarget } from './printers.js';
import { describeReasons, problemReasons, sentenceFor } from './reasons.js';
import type { StatusBoard } from './status.js';

/**
 * Following a job the printer accepted, to its end: `job-state` and `job-impressions-completed`
 * drive progress; completed → the result, aborted / canceled → an Error with the printer's words.
 *
 * The timeout policy (`jobTimeoutMs`, from acceptance): when it passes before the printer says the
 * job ended,
 * - and the printer reports a problem (out of paper, jam, door open, stopped …): the job is
 *   cancelled on the printer and the command ends in Error with that problem in words, so
 *   "Error" means "not printed — print it again once fixed", never a late surprise print;
 * - and the printer stopped answering: Error STATE_UNKNOWN (it may or may not have printed);
 * - otherwise (a printer or queue that never reports the end): Processed, saying so.
 *
 * A platform cancellation (the signal, with `onAbort: 'cancel'`) becomes Cancel-Job; if the
 * printer had already finished, the real outcome is returned instead.
 */

export interface FollowDeps {
  ops: IppOperations;
  options: IppPrinterOptions;
  clock: Clock;
  log: Logger;
  board: StatusBoard;
}

export interface Followed {
  target: PrinterTarget;
  jobId: number;
  copies: number;
}

export interface FollowOptions {
  signal?: AbortSignal;
  /** `cancel`: Cancel-Job on abort (execute); `leave`: just stop following (reconcile at shutdown). */
  onAbort: 'cancel' | 'leave';
  progress?: (fraction: number) => void;
}

/** Pages of one copy: `job-impressions` (RFC 8011: excludes copies), else completed ÷ copies. */
export function pagesOf(job: JobInfo | undefined, copies: number): number | undefined {
  if (!job) return undefined;
  if (job.impressions !== undefined && job.impressions > 0) return job.impressions;
  const done = job.impressionsCompleted;
  if (done !== undefined && done > 0 && done % copies === 0) return done / copies;
  return undefined;
}

/** A result this driver made: its Notes are always a message of its catalogue. */
export type PrintResult = JobResult & { notes: Message };

export function printedResult(f: Followed, job: JobInfo | undefined, recovered = false): PrintResult {
  const pages = pagesOf(job, f.copies);
  const what =
    pages === undefined ? copiesWord(f.copies) : ippMessages.copiesOfPages({ copies: f.copies, pages });
  const said = { what, printer: f.target.label };
  const notes = recovered ? ippMessages.printedAfterRestart(said) : ippMessages.printed(said);
  return { notes, details: details(f, job) };
}

function copiesWord(copies: number): Message {
  return ippMessages.copies({ copies });
}

function details(f: Followed, job: JobInfo | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { printer: f.target.label, jobId: f.jobId, copies: f.copies };
  const pages = pagesOf(job, f.copies);
  if (pages !== undefined) out.pages = pages;
  if (job?.impressionsCompleted !== undefined) out.impressionsCompleted = job.impressionsCompleted;
  if (job?.state !== undefined) out.jobState = jobStateWords(job.state);
  return out;
}

const JOB_STATE_WORDS: Record<number, () => Message> = {
  [JobState.pending]: ippJobStates.pending,
  [JobState.pendingHeld]: ippJobStates.pendingHeld,
  [JobState.processing]: ippJobStates.processing,
  [JobState.processingStopped]: ippJobStates.processingStopped,
  [JobState.canceled]: ippJobStates.canceled,
  [JobState.aborted]: ippJobStates.aborted,
  [JobState.completed]: ippJobStates.completed,
};

/** A job's `job-state` in words; a value outside RFC 8011's stays its number. */
function jobStateWords(state: number): Message | number {
  return JOB_STATE_WORDS[state]?.() ?? state;
}

/** "; 2 of 6 pages had printed" — what a stopped job left on paper, when the printer says. */
function printedSoFar(job: JobInfo | undefined, copies: number): Message | string {
  const done = job?.impressionsCompleted;
  if (done === undefined) return '';
  if (done === 0) return ippMessages.nothingHadPrinted();
  const pages = pagesOf(job, copies);
  return pages !== undefined
    ? ippMessages.pagesOfHadPrinted({ done, total: pages * copies })
    : ippMessages.pagesHadPrinted({ done });
}

function jobWords(job: JobInfo | undefined): string {
  const reasons = (job?.reasons ?? []).filter((r) => r !== 'none' && !r.startsWith('job-completed'));
  const message =
    job?.message && !/^job (aborted|canceled|stopped)\.?$/i.test(job.message) ? job.message : '';
  return [message, ...reasons].filter(Boolean).join('; ');
}

type CancelOutcome =
  | { kind: 'completed'; job: JobInfo | undefined }
  | { kind: 'cancelled'; job: JobInfo | undefined }
  | { kind: 'not-cancelled'; why: Message; job: JobInfo | undefined };

/** The wait for a cancelled job's end has no signal of its own: it is bounded by its deadline. */
const NEVER = new AbortController().signal;

export class JobFollower {
  constructor(private readonly d: FollowDeps) {}

  private opOptions(signal?: AbortSignal) {
    return { timeoutMs: this.d.options.requestTimeoutMs, user: this.d.options.user, signal };
  }

  /** Reads the printer for the board; resolves undefined when it does not answer. */
  async refreshPrinter(target: PrinterTarget, signal?: AbortSignal): Promise<PrinterInfo | undefined> {
    try {
      const { answer, info } = await this.d.ops.printer(target.uri, this.opOptions(signal));
      if (info) {
        this.d.board.answered(target.label, target.uri, info);
        return info;
      }
      this.d.board.unreachable(
        target.label,
        target.uri,
        ippMessages.printerAnswered({ words: answer.message ?? answer.statusName }),
      );
      return undefined;
    } catch (e) {
      if (!(e instanceof IppTransportError)) throw e;
      this.d.board.unreachable(target.label, target.uri, transportWords(e));
      return undefined;
    }
  }

  async follow(f: Followed, o: FollowOptions): Promise<PrintResult> {
    const { clock, options } = this.d;
    const deadline = clock.now() + options.jobTimeoutMs;
    let last: JobInfo | undefined;
    let reachable = true;
    let lastFraction = -1;
    /** One look at the job: its outcome once it ended or the wait is over, else undefined. */
    const look = async (): Promise<PrintResult | undefined> => {
      const read = await this.readJob(f);
      reachable = read !== undefined;
      if (read === 'gone') return this.purged(f, last);
      if (read) {
        last = read;
        if (read.state === JobState.completed) return this.finished(f, read);
        if (read.state === JobState.aborted) throw this.abortedError(f, read);
        if (read.state === JobState.canceled) throw this.canceledElsewhere(f, read);
        const fraction = this.fraction(f, read);
        if (fraction !== lastFraction) {
          lastFraction = fraction;
          o.progress?.(fraction);
        }
      }
      await this.refreshPrinter(f.target);
      if (clock.now() >= deadline) return this.timedOut(f, last, reachable);
      return undefined;
    };
    const signal = o.signal ?? NEVER;
    try {
      return await pollUntil(look, { clock, signal, intervalMs: options.pollIntervalMs });
    } catch (error) {
      if (!signal.aborted || error !== signal.reason) throw error;
      // The job's signal: left on the printer, or cancelled there for the platform's cancel.
      if (o.onAbort === 'leave') throw signal.reason;
      return this.cancelOnPlatformRequest(f, last);
    }
  }

  private fraction(f: Followed, job: JobInfo): number {
    const total = (job.impressions ?? 0) * f.copies;
    if (total > 0 && job.impressionsCompleted !== undefined) {
      return 0.3 + 0.65 * Math.min(1, job.impressionsCompleted / total);
    }
    return job.state === JobState.processing ? 0.5 : 0.3;
  }

  /** The job's attributes; 'gone' when the printer no longer knows it; undefined when unreachable. */
  private async readJob(f: Followed): Promise<JobInfo | 'gone' | undefined> {
    try {
      const { answer, job } = await this.d.ops.job(f.target.uri, f.jobId, this.opOptions());
      if (answer.status === Status.notFound || answer.status === Status.gone) return 'gone';
      if (!isSuccess(answer.status) || !job) return undefined;
      return job;
    } catch (e) {
      if (e instanceof IppTransportError) return undefined;
      throw e;
    }
  }

  private finished(f: Followed, job: JobInfo): PrintResult {
    const result = printedResult(f, job);
    this.d.board.jobEnded(
      { printer: f.target.label, jobId: f.jobId, outcome: result.notes, at: this.d.clock.now() },
      true,
    );
    return result;
  }

  private purged(f: Followed, last: JobInfo | undefined): PrintResult {
    const notes = ippMessages.purged({ what: copiesWord(f.copies), printer: f.target.label, job: f.jobId });
    this.d.board.jobEnded(
      { printer: f.target.label, jobId: f.jobId, outcome: notes, at: this.d.clock.now() },
      true,
    );
    return { notes, details: details(f, last) };
  }

  private fail(f: Followed, error: AgentError): AgentError {
    this.d.board.jobEnded(
      { printer: f.target.label, jobId: f.jobId, outcome: readMessage(error.notes), at: this.d.clock.now() },
      false,
    );
    return error;
  }

  private abortedError(f: Followed, job: JobInfo): AgentError {
    const words = jobWords(job);
    const reasons = problemReasons(this.d.board.reasonsOf(f.target.uri));
    const where = { printer: f.target.label, job: f.jobId, soFar: printedSoFar(job, f.copies) };
    const notes =
      reasons.length > 0
        ? ippMessages.abortedWithProblem({ ...where, problem: sentenceFor(f.target.label, reasons) })
        : words
          ? ippMessages.abortedWithWords({ ...where, words })
          : ippMessages.aborted(where);
    return this.fail(
      f,
      new AgentError(
        reasons[0]?.code ?? 'DEVICE_ERROR',
        `Job ${f.jobId} aborted by the printer${words ? `: ${words}` : ''}`,
        {
          notes,
          details: details(f, job),
        },
      ),
    );
  }

  private canceledElsewhere(f: Followed, job: JobInfo): AgentError {
    return this.fail(
      f,
      new AgentError('ABORTED', `Job ${f.jobId} was canceled on the printer`, {
        notes: ippMessages.cancelledElsewhere({
          printer: f.target.label,
          job: f.jobId,
          soFar: printedSoFar(job, f.copies),
        }),
        details: details(f, job),
      }),
    );
  }

  private async timedOut(f: Followed, last: JobInfo | undefined, reachable: boolean): Promise<PrintResult> {
    const minutes = Math.max(1, Math.round(this.d.options.jobTimeoutMs / 60_000));
    const waited = ippMessages.minutes({ minutes });
    if (!reachable) {
      throw this.fail(
        f,
        new AgentError('STATE_UNKNOWN', `Job ${f.jobId}: the printer stopped answering`, {
          notes: ippMessages.stoppedAnswering({ printer: f.target.label, job: f.jobId }),
          details: details(f, last),
        }),
      );
    }
    const info = await this.refreshPrinter(f.target);
    const reasons = problemReasons(describeReasons(info?.reasons ?? []));
    const stuck = info?.state === PrinterState.stopped || last?.state === JobState.processingStopped;
    if (reasons.length === 0 && !stuck) {
      const notes = ippMessages.unconfirmed({
        what: copiesWord(f.copies),
        printer: f.target.label,
        job: f.jobId,
        waited,
      });
      this.d.board.jobEnded(
        { printer: f.target.label, jobId: f.jobId, outcome: notes, at: this.d.clock.now() },
        true,
      );
      return { notes, details: { ...details(f, last), unconfirmed: true } };
    }
    const outcome = await this.cancel(f, last);
    if (outcome.kind === 'completed') return this.finished(f, outcome.job ?? (last as JobInfo));
    const problem =
      reasons.length > 0
        ? sentenceFor(f.target.label, reasons)
        : ippMessages.printerStopped({ printer: f.target.label });
    const notes =
      outcome.kind === 'cancelled'
        ? ippMessages.waitedAndCancelled({ problem, waited, soFar: printedSoFar(outcome.job, f.copies) })
        : ippMessages.waitedNotCancelled({ problem, waited, why: outcome.why });
    throw this.fail(
      f,
      new AgentError(reasons[0]?.code ?? 'DEVICE_ERROR', `Job ${f.jobId} not printed within ${minutes} min`, {
        notes,
        details: details(f, outcome.job),
      }),
    );
  }

  private async cancelOnPlatformRequest(f: Followed, last: JobInfo | undefined): Promise<PrintResult> {
    const outcome = await this.cancel(f, last);
    if (outcome.kind === 'completed') return this.finished(f, outcome.job ?? (last as JobInfo));
    const where = { printer: f.target.label, job: f.jobId };
    const notes =
      outcome.kind === 'cancelled'
        ? ippMessages.cancelledOn({ ...where, soFar: printedSoFar(outcome.job, f.copies) })
        : ippMessages.couldNotCancel({ ...where, why: outcome.why });
    throw this.fail(
      f,
      new AgentError('ABORTED', `Job ${f.jobId} cancelled`, { notes, details: details(f, outcome.job) }),
    );
  }

  /** Cancel-Job, then waits (bounded) for the printer to say how the job ended. */
  private async cancel(f: Followed, last: JobInfo | undefined): Promise<CancelOutcome> {
    const { ops, clock, options, log } = this.d;
    try {
      const answer = await ops.cancel(f.target.uri, f.jobId, this.opOptions());
      if (!isSuccess(answer.status) && answer.status !== Status.notPossible) {
        const why =
          answer.status === Status.notAuthorized ||
          answer.status === Status.notAuthenticated ||
          answer.status === Status.forbidden
            ? ippMessages.cancelNeedsPassword()
            : ippMessages.printerAnswered({ words: answer.message ?? answer.statusName });
        return { kind: 'not-cancelled', why, job: last };
      }
    } catch (e) {
      if (!(e instanceof IppTransportError)) throw e;
      const why =
        e.httpStatus === 401 || e.httpStatus === 403
          ? ippMessages.cancelNeedsPassword()
          : ippMessages.cancelNoAnswer();
      log.warn('Cancel-Job failed', { jobId: f.jobId, printer: f.target.label, error: e.message });
      return { kind: 'not-cancelled', why, job: last };
    }
    const until = clock.now() + Math.max(5_000, 5 * options.pollIntervalMs);
    let job = last;
    return pollUntil(
      async (): Promise<CancelOutcome | undefined> => {
        const read = await this.readJob(f);
        if (read === 'gone') return { kind: 'cancelled', job };
        if (read) {
          job = read;
          if (read.state === JobState.completed) return { kind: 'completed', job: read };
          if (read.state === JobState.canceled || read.state === JobState.aborted)
            return { kind: 'cancelled', job: read };
        }
        if (clock.now() >= until) return { kind: 'not-cancelled', why: ippMessages.cancelNotYet(), job };
        return undefined;
      },
      { clock, signal: NEVER, intervalMs: options.pollIntervalMs },
    );
  }
}
