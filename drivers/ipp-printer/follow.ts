import type { Clock } from '../../src/clock.js';
import type { JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { IppPrinterOptions } from './config.js';
import { IppTransportError, isSuccess } from './ipp-client.js';
import { JOB_STATE_NAMES, JobState, PrinterState, Status } from './ipp-constants.js';
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

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Pages of one copy: `job-impressions` (RFC 8011: excludes copies), else completed ÷ copies. */
export function pagesOf(job: JobInfo | undefined, copies: number): number | undefined {
  if (!job) return undefined;
  if (job.impressions !== undefined && job.impressions > 0) return job.impressions;
  const done = job.impressionsCompleted;
  if (done !== undefined && done > 0 && done % copies === 0) return done / copies;
  return undefined;
}

export function printedResult(f: Followed, job: JobInfo | undefined, recovered = false): JobResult {
  const pages = pagesOf(job, f.copies);
  const what = pages === undefined ? copiesWord(f.copies) : copiesOf(f.copies, pages);
  const notes = `Printed ${what} on ${f.target.label}${recovered ? ' (confirmed by the printer after a restart)' : ''}`;
  return { notes, details: details(f, job) };
}

function copiesWord(copies: number): string {
  return copies === 1 ? '1 copy' : `${copies} copies`;
}

function copiesOf(copies: number, pages: number): string {
  return `${copiesWord(copies)} of ${plural(pages, 'page')}`;
}

function details(f: Followed, job: JobInfo | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { printer: f.target.label, jobId: f.jobId, copies: f.copies };
  const pages = pagesOf(job, f.copies);
  if (pages !== undefined) out.pages = pages;
  if (job?.impressionsCompleted !== undefined) out.impressionsCompleted = job.impressionsCompleted;
  if (job?.state !== undefined) out.jobState = JOB_STATE_NAMES[job.state] ?? job.state;
  return out;
}

/** "; 2 of 6 pages had printed" — what a stopped job left on paper, when the printer says. */
function printedSoFar(job: JobInfo | undefined, copies: number): string {
  const done = job?.impressionsCompleted;
  if (done === undefined) return '';
  if (done === 0) return '; nothing had printed';
  const pages = pagesOf(job, copies);
  return pages !== undefined
    ? `; ${done} of ${pages * copies} pages had printed`
    : `; ${plural(done, 'page')} had printed`;
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
  | { kind: 'not-cancelled'; why: string; job: JobInfo | undefined };

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
      this.d.board.unreachable(target.label, target.uri, answer.message ?? answer.statusName);
      return undefined;
    } catch (e) {
      if (!(e instanceof IppTransportError)) throw e;
      this.d.board.unreachable(
        target.label,
        target.uri,
        e.kind === 'timeout' ? 'no answer in time' : e.message,
      );
      return undefined;
    }
  }

  async follow(f: Followed, o: FollowOptions): Promise<JobResult> {
    const { clock, options } = this.d;
    const deadline = clock.now() + options.jobTimeoutMs;
    let last: JobInfo | undefined;
    let reachable = true;
    let lastFraction = -1;
    for (;;) {
      if (o.signal?.aborted) {
        if (o.onAbort === 'leave') throw o.signal.reason;
        return this.cancelOnPlatformRequest(f, last);
      }
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
      try {
        await clock.sleep(options.pollIntervalMs, o.signal);
      } catch {
        // The loop's top decides what an abort means.
      }
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

  private finished(f: Followed, job: JobInfo): JobResult {
    const result = printedResult(f, job);
    this.d.board.jobEnded(
      { printer: f.target.label, jobId: f.jobId, outcome: result.notes, at: this.d.clock.now() },
      true,
    );
    return result;
  }

  private purged(f: Followed, last: JobInfo | undefined): JobResult {
    const notes = `Sent ${copiesWord(f.copies)} to ${f.target.label} (job ${f.jobId}); the printer accepted it and no longer lists it`;
    this.d.board.jobEnded(
      { printer: f.target.label, jobId: f.jobId, outcome: notes, at: this.d.clock.now() },
      true,
    );
    return { notes, details: details(f, last) };
  }

  private fail(f: Followed, error: AgentError): AgentError {
    this.d.board.jobEnded(
      { printer: f.target.label, jobId: f.jobId, outcome: error.notes, at: this.d.clock.now() },
      false,
    );
    return error;
  }

  private abortedError(f: Followed, job: JobInfo): AgentError {
    const words = jobWords(job);
    const reasons = problemReasons(this.d.board.reasonsOf(f.target.uri));
    const why = reasons.length > 0 ? `: ${sentenceFor(f.target.label, reasons)}` : words ? ` (${words})` : '';
    return this.fail(
      f,
      new AgentError(
        reasons[0]?.code ?? 'DEVICE_ERROR',
        `Job ${f.jobId} aborted by the printer${words ? `: ${words}` : ''}`,
        {
          notes: `${f.target.label} could not print the document (job ${f.jobId})${why}${printedSoFar(job, f.copies)}. Fix the printer, then print again.`,
          details: details(f, job),
        },
      ),
    );
  }

  private canceledElsewhere(f: Followed, job: JobInfo): AgentError {
    return this.fail(
      f,
      new AgentError('ABORTED', `Job ${f.jobId} was canceled on the printer`, {
        notes: `The print job was cancelled on ${f.target.label} or in CUPS (job ${f.jobId})${printedSoFar(job, f.copies)}. Print it again if it is still needed.`,
        details: details(f, job),
      }),
    );
  }

  private async timedOut(f: Followed, last: JobInfo | undefined, reachable: boolean): Promise<JobResult> {
    const minutes = Math.max(1, Math.round(this.d.options.jobTimeoutMs / 60_000));
    const waited = `${minutes} minute${minutes === 1 ? '' : 's'}`;
    if (!reachable) {
      throw this.fail(
        f,
        new AgentError('STATE_UNKNOWN', `Job ${f.jobId}: the printer stopped answering`, {
          notes: `The document was sent to ${f.target.label} (job ${f.jobId}), but the printer stopped answering before it said it was printed. Check the printer before printing it again.`,
          details: details(f, last),
        }),
      );
    }
    const info = await this.refreshPrinter(f.target);
    const reasons = problemReasons(describeReasons(info?.reasons ?? []));
    const stuck = info?.state === PrinterState.stopped || last?.state === JobState.processingStopped;
    if (reasons.length === 0 && !stuck) {
      const notes = `Sent ${copiesWord(f.copies)} to ${f.target.label} (job ${f.jobId}); the printer did not report it finished within ${waited} — check the output tray`;
      this.d.board.jobEnded(
        { printer: f.target.label, jobId: f.jobId, outcome: notes, at: this.d.clock.now() },
        true,
      );
      return { notes, details: { ...details(f, last), unconfirmed: true } };
    }
    const outcome = await this.cancel(f, last);
    if (outcome.kind === 'completed') return this.finished(f, outcome.job ?? (last as JobInfo));
    const problem = reasons.length > 0 ? sentenceFor(f.target.label, reasons) : `${f.target.label} stopped`;
    const tail =
      outcome.kind === 'cancelled'
        ? `The job waited ${waited} and was cancelled${printedSoFar(outcome.job, f.copies)}; print it again once the printer is ready.`
        : `The job waited ${waited}; the agent could not cancel it (${outcome.why}), so it may still print when the printer is fixed — check before printing again.`;
    throw this.fail(
      f,
      new AgentError(reasons[0]?.code ?? 'DEVICE_ERROR', `Job ${f.jobId} not printed within ${waited}`, {
        notes: `Not printed: ${problem}. ${tail}`,
        details: details(f, outcome.job),
      }),
    );
  }

  private async cancelOnPlatformRequest(f: Followed, last: JobInfo | undefined): Promise<JobResult> {
    const outcome = await this.cancel(f, last);
    if (outcome.kind === 'completed') return this.finished(f, outcome.job ?? (last as JobInfo));
    const notes =
      outcome.kind === 'cancelled'
        ? `Cancelled on ${f.target.label} (job ${f.jobId})${printedSoFar(outcome.job, f.copies)}.`
        : `The agent could not cancel job ${f.jobId} on ${f.target.label} (${outcome.why}); it may still print — cancel it at the printer.`;
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
            ? 'the printer asks for a password to cancel'
            : (answer.message ?? answer.statusName);
        return { kind: 'not-cancelled', why, job: last };
      }
    } catch (e) {
      if (!(e instanceof IppTransportError)) throw e;
      const why =
        e.httpStatus === 401 || e.httpStatus === 403
          ? 'the printer asks for a password to cancel'
          : 'the printer did not answer';
      log.warn('Cancel-Job failed', { jobId: f.jobId, printer: f.target.label, error: e.message });
      return { kind: 'not-cancelled', why, job: last };
    }
    const until = clock.now() + Math.max(5_000, 5 * options.pollIntervalMs);
    let job = last;
    for (;;) {
      const read = await this.readJob(f);
      if (read === 'gone') return { kind: 'cancelled', job };
      if (read) {
        job = read;
        if (read.state === JobState.completed) return { kind: 'completed', job: read };
        if (read.state === JobState.canceled || read.state === JobState.aborted)
          return { kind: 'cancelled', job: read };
      }
      if (clock.now() >= until)
        return { kind: 'not-cancelled', why: 'the printer has not stopped it yet', job };
      await clock.sleep(options.pollIntervalMs);
    }
  }
}
