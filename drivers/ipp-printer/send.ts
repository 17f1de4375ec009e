import type { Clock } from '../../src/clock.js';
import type { ExecuteContext, Job } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Logger } from '../../src/log.js';
import type { Message } from '../../src/messages/message.js';
import { english } from '../../src/messages/render.js';
import { pollUntil } from '../../src/periodic.js';
import type { PrintCheckpoint } from './checkpoint.js';
import type { IppPrinterOptions } from './config.js';
import type { PrintDocument } from './document.js';
import type { JobFollower, PrintResult } from './follow.js';
import { IppTransportError, isSuccess, transportWords } from './ipp-client.js';
import { PrinterState, Status } from './ipp-constants.js';
import { ippMessages } from './messages.js';
import type { IppOperations, JobInfo, PrinterInfo } from './operations.js';
import { type PrinterTarget, unknownPrinter } from './printers.js';
import { blockingReasons, describeReasons, sentenceFor } from './reasons.js';
import type { StatusBoard } from './status.js';

/**
 * One Print-Job, exactly once: the printer is asked first (reachable, not stopped by a problem,
 * accepting jobs, able to print this file type and copy count), the checkpoint is stored, the
 * document goes out, and the job is followed to its end. What is known after a lost answer is
 * decided by `findOwnJob` — the printer's own job list, filtered by `job-name` = the command id
 * and `requesting-user-name`.
 */

export interface SendDeps {
  ops: IppOperations;
  options: IppPrinterOptions;
  clock: Clock;
  log: Logger;
  board: StatusBoard;
  follower: JobFollower;
  /** CUPS queue names, for the Notes of an unknown printer (best effort, never throws). */
  cupsQueueNames: () => Promise<string[]>;
}

function nothingSent(
  code: AgentError['code'],
  message: string,
  notes: Message,
  retryable?: boolean,
): AgentError {
  return new AgentError(code, message, {
    notes,
    details: { nothingSent: true },
    ...(retryable === undefined ? {} : { retryable }),
  });
}

export type OwnJob = { found: JobInfo } | { absent: true; conclusive: boolean; reason: Message };

export class Sender {
  constructor(private readonly d: SendDeps) {}

  private op(signal?: AbortSignal) {
    return { timeoutMs: this.d.options.requestTimeoutMs, user: this.d.options.user, signal };
  }

  /**
   * The printer's attributes once it is ready to take the document. Waits up to `offlineWaitMs`
   * for a printer that does not answer. Rejects with an error saying nothing was printed.
   */
  async readyPrinter(target: PrinterTarget, signal: AbortSignal): Promise<PrinterInfo> {
    const { clock, options, board } = this.d;
    const deadline = clock.now() + options.offlineWaitMs;
    /** One question to the printer: its attributes when ready, undefined while it does not answer. */
    const ask = async (): Promise<PrinterInfo | undefined> => {
      let answer: Awaited<ReturnType<IppOperations['printer']>>;
      try {
        answer = await this.d.ops.printer(target.uri, this.op(signal));
      } catch (e) {
        if (signal.aborted) throw stopped();
        if (!(e instanceof IppTransportError)) throw e;
        if (e.kind === 'http-status' || e.kind === 'garbage') {
          board.unreachable(target.label, target.uri, transportWords(e));
          throw nothingSent(
            'DEVICE_ERROR',
            e.message,
            ippMessages.refusedRequestAddress({
              printer: target.label,
              words: e.httpStatus ? `HTTP ${e.httpStatus}` : ippMessages.notIppAnswer(),
            }),
          );
        }
        board.unreachable(
          target.label,
          target.uri,
          e.kind === 'timeout' ? ippMessages.noAnswerInTime() : ippMessages.unreachable(),
        );
        if (clock.now() >= deadline) {
          throw nothingSent(
            'DEVICE_UNAVAILABLE',
            `${target.label} does not answer: ${e.message}`,
            ippMessages.doesNotAnswer({ printer: target.label }),
          );
        }
        return undefined;
      }
      const { answer: a, info } = answer;
      if (a.status === Status.notFound) {
        board.unreachable(target.label, target.uri, ippMessages.noSuchQueue());
        throw unknownPrinter(target.name, await this.knownNames());
      }
      if (!info) {
        throw nothingSent(
          'DEVICE_ERROR',
          `Get-Printer-Attributes: ${a.statusName}`,
          ippMessages.refusedRequest({ printer: target.label, words: a.message ?? a.statusName }),
        );
      }
      board.answered(target.label, target.uri, info);
      const blocking = blockingReasons(describeReasons(info.reasons), info.state === PrinterState.stopped);
      if (blocking.length > 0) {
        const first = blocking[0] as (typeof blocking)[number];
        throw nothingSent(
          first.code,
          `${target.label}: ${blocking.map((r) => r.keyword).join(', ')}`,
          ippMessages.blocked({ problem: sentenceFor(target.label, blocking) }),
          first.code === 'DEVICE_BUSY' || first.code === 'DEVICE_UNAVAILABLE',
        );
      }
      if (info.accepting === false) {
        throw nothingSent(
          'DEVICE_UNAVAILABLE',
          `${target.label} is not accepting jobs`,
          ippMessages.notAccepting({ printer: target.label }),
          false,
        );
      }
      return info;
    };
    try {
      return await pollUntil(ask, { clock, signal, intervalMs: options.statusRetryMs });
    } catch (error) {
      throw signal.aborted && error === signal.reason ? stopped() : error;
    }
  }

  private async knownNames(): Promise<string[]> {
    const queues = await this.d.cupsQueueNames();
    const names = Object.keys(this.d.options.printers);
    for (const q of queues) if (!names.includes(q)) names.push(q);
    return names;
  }

  /** Refuses a file type or copy count the printer says it cannot do. */
  checkCapabilities(target: PrinterTarget, info: PrinterInfo, doc: PrintDocument): void {
    if (info.formats.length > 0 && !info.formats.includes(doc.format)) {
      const accepted = info.formats.filter((f) => f !== 'application/octet-stream').slice(0, 6);
      throw new AgentError('COMMAND_INVALID', `${target.label} does not support ${doc.format}`, {
        notes:
          accepted.length > 0
            ? ippMessages.cannotPrintFormatTakes({
                printer: target.label,
                format: doc.formatLabel,
                accepted: { list: accepted, join: 'or' },
              })
            : ippMessages.cannotPrintFormat({ printer: target.label, format: doc.formatLabel }),
        details: { format: doc.format, supported: info.formats },
      });
    }
    const copies = info.copies;
    if (copies && (doc.copies < copies.lower || doc.copies > copies.upper)) {
      throw new AgentError(
        'COMMAND_INVALID',
        `${target.label} supports copies ${copies.lower}-${copies.upper}`,
        {
          notes: ippMessages.tooManyCopiesForPrinter({
            printer: target.label,
            upper: copies.upper,
            copies: doc.copies,
          }),
          details: { copies: doc.copies, copiesSupported: copies },
        },
      );
    }
  }

  /** Every job of ours named `jobName` the printer still lists, and whether an absence is proof. */
  async findOwnJob(
    target: PrinterTarget,
    jobName: string,
    upTime: number | undefined,
    signal?: AbortSignal,
  ): Promise<OwnJob> {
    const { answer, jobs } = await this.d.ops.jobs(target.uri, this.op(signal));
    if (!isSuccess(answer.status)) {
      return {
        absent: true,
        conclusive: false,
        reason: ippMessages.jobsNotListed({ status: answer.statusName }),
      };
    }
    const user = this.d.options.user;
    const mine = jobs.filter((j) => j.name === jobName && (j.user === undefined || j.user === user));
    const found = mine.sort((a, b) => b.id - a.id)[0];
    if (found) return { found };
    if (upTime === undefined) {
      return {
        absent: true,
        conclusive: false,
        reason: ippMessages.clockNotNoted(),
      };
    }
    const info = (await this.d.ops.printer(target.uri, this.op(signal))).info;
    const now = info?.upTime;
    const older = jobs.some((j) => j.createdAt !== undefined && j.createdAt <= upTime);
    if (now !== undefined && now >= upTime && older)
      return { absent: true, conclusive: true, reason: ippMessages.notInJobList() };
    return {
      absent: true,
      conclusive: false,
      reason: now !== undefined && now < upTime ? ippMessages.printerRestarted() : ippMessages.jobsTooOld(),
    };
  }

  /**
   * Sends the document (the checkpoint first) and follows the job. `copiesAttr` is false when the
   * printer does not list `copies-supported` and one copy is wanted.
   */
  async send(
    job: Job,
    ctx: ExecuteContext,
    target: PrinterTarget,
    info: PrinterInfo,
    doc: PrintDocument,
  ): Promise<PrintResult> {
    const { options, log } = this.d;
    const base: PrintCheckpoint = {
      v: 1,
      phase: 'sending',
      printer: target.label,
      uri: target.uri,
      jobName: job.commandId,
      user: options.user,
      copies: doc.copies,
    };
    if (info.upTime !== undefined) base.upTime = info.upTime;
    if (ctx.signal.aborted) throw stopped();
    await ctx.checkpoint(base);
    let printed: Awaited<ReturnType<IppOperations['print']>>;
    try {
      printed = await this.d.ops.print(
        target.uri,
        {
          name: job.commandId,
          format: doc.format,
          copies: info.copies || doc.copies > 1 ? doc.copies : undefined,
        },
        doc.body,
        { timeoutMs: options.sendTimeoutMs, user: options.user },
      );
    } catch (e) {
      if (!(e instanceof IppTransportError)) throw e;
      if (!e.sent) {
        throw nothingSent(
          'DEVICE_UNAVAILABLE',
          `Print-Job not delivered: ${e.message}`,
          ippMessages.doesNotAnswer({ printer: target.label }),
        );
      }
      log.warn('the answer to Print-Job was lost; asking the printer', {
        printer: target.label,
        error: e.message,
      });
      return this.afterLostAnswer(ctx, target, base);
    }
    const { answer } = printed;
    if (!isSuccess(answer.status) || !printed.job) {
      const unsupported = printed.ignored;
      const status = unsupported.includes('document-format')
        ? Status.documentFormatNotSupported
        : answer.status;
      throw this.refused(target, doc, status, answer.message ?? answer.statusName);
    }
    const jobId = printed.job.id;
    await ctx.checkpoint({ ...base, phase: 'accepted', jobId } satisfies PrintCheckpoint);
    log.info('print job accepted', { printer: target.label, jobId, copies: doc.copies });
    ctx.progress(0.3);
    const result = await this.d.follower.follow(
      { target, jobId, copies: doc.copies },
      { signal: ctx.signal, onAbort: 'cancel', progress: (f) => ctx.progress(f) },
    );
    if (printed.ignored.includes('copies') && doc.copies > 1) {
      return { ...result, notes: ippMessages.copyCountIgnored({ sentence: result.notes }) };
    }
    return result;
  }

  private async afterLostAnswer(
    ctx: ExecuteContext,
    target: PrinterTarget,
    base: PrintCheckpoint,
  ): Promise<PrintResult> {
    let own: OwnJob | undefined;
    for (let tries = 0; tries < 3 && !own; tries++) {
      try {
        own = await this.findOwnJob(target, base.jobName, base.upTime);
      } catch (e) {
        if (!(e instanceof IppTransportError)) throw e;
        await this.d.clock.sleep(this.d.options.statusRetryMs).catch(() => undefined);
      }
    }
    if (own && 'found' in own) {
      await ctx.checkpoint({ ...base, phase: 'accepted', jobId: own.found.id } satisfies PrintCheckpoint);
      return this.d.follower.follow(
        { target, jobId: own.found.id, copies: base.copies },
        { signal: ctx.signal, onAbort: 'cancel', progress: (f) => ctx.progress(f) },
      );
    }
    if (own?.conclusive) {
      throw nothingSent(
        'DEVICE_UNAVAILABLE',
        'Print-Job answer lost; the printer has no such job',
        ippMessages.brokeNothingTaken({ printer: target.label }),
      );
    }
    const why = own ? own.reason : ippMessages.cancelNoAnswer();
    throw new AgentError('STATE_UNKNOWN', `Print-Job answer lost and ${english(why)}`, {
      notes: ippMessages.brokeUnknown({ printer: target.label, why }),
    });
  }

  private refused(target: PrinterTarget, doc: PrintDocument, status: number, words: string): AgentError {
    switch (status) {
      case Status.documentFormatNotSupported:
        return nothingSent(
          'COMMAND_INVALID',
          `Print-Job: ${words}`,
          ippMessages.cannotPrintFormat({ printer: target.label, format: doc.formatLabel }),
        );
      case Status.requestEntityTooLarge:
        return nothingSent(
          'COMMAND_INVALID',
          `Print-Job: ${words}`,
          ippMessages.tooLargeForPrinter({ printer: target.label }),
        );
      case Status.notAcceptingJobs:
      case Status.busy:
      case Status.temporaryError:
      case Status.serviceUnavailable:
        return nothingSent('DEVICE_BUSY', `Print-Job: ${words}`, ippMessages.busy({ printer: target.label }));
      case Status.notAuthenticated:
      case Status.notAuthorized:
      case Status.forbidden:
        return nothingSent(
          'DEVICE_ERROR',
          `Print-Job: ${words}`,
          ippMessages.needsPassword({ printer: target.label }),
        );
      default:
        return nothingSent(
          'DEVICE_ERROR',
          `Print-Job: ${words}`,
          ippMessages.refused({ printer: target.label, words }),
        );
    }
  }
}

export function stopped(): AgentError {
  return new AgentError('ABORTED', 'Stopped before the document was sent', {
    notes: ippMessages.stopped(),
    details: { nothingSent: true },
  });
}
