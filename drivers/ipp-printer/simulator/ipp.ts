import {
  attr,
  bool,
  firstGroup,
  type IppMessage,
  type IppOutAttribute,
  type IppOutGroup,
  type IppOutMessage,
  num,
  str,
  strs,
  v,
} from '../ipp-codec.js';
import { GroupTag, JobState, Operation, Status } from '../ipp-constants.js';
import type { SimJob, SimPrinter } from './printer.js';

/**
 * The IPP operations of the printer simulator: what a request asks, what it answers. Statuses and
 * status messages follow `ippeveprinter` (OpenPrinting/cups:tools/ippeveprinter.c, v2.4.2:
 * ipp_print_job, ipp_get_jobs, ipp_get_job_attributes, ipp_cancel_job, valid_job_attributes);
 * `test/drivers/ipp-printer/simulator-vs-ippeveprinter.test.ts` sends both the same requests.
 * CUPS-Get-Printers answers as a CUPS server would at its root.
 */

export interface OperationContext {
  /** The address this printer is reached at, for `printer-uri-supported` and `job-uri`. */
  printerUri: string;
}

function respond(
  request: IppMessage,
  status: number,
  message: string | undefined,
  groups: IppOutGroup[] = [],
): IppOutMessage {
  const op: IppOutAttribute[] = [
    attr('attributes-charset', v.charset('utf-8')),
    attr('attributes-natural-language', v.language('en')),
  ];
  if (message) op.push(attr('status-message', v.text(message)));
  return {
    version: { major: 1, minor: 1 },
    code: status,
    requestId: request.requestId,
    groups: [{ tag: GroupTag.operation, attributes: op }, ...groups],
  };
}

function requested(request: IppMessage): Set<string> | undefined {
  const names = strs(firstGroup(request, GroupTag.operation), 'requested-attributes');
  return names.length === 0 || names.includes('all') ? undefined : new Set(names);
}

function filter(attrs: IppOutAttribute[], wanted: Set<string> | undefined): IppOutAttribute[] {
  if (!wanted) return attrs;
  const groups: Record<string, string[]> = {
    'printer-description': [],
    'job-template': ['copies-default', 'copies-supported'],
    'job-description': [],
  };
  const expanded = new Set(wanted);
  for (const [group, names] of Object.entries(groups))
    if (wanted.has(group)) for (const n of names) expanded.add(n);
  if (wanted.has('printer-description') || wanted.has('job-description')) return attrs;
  return attrs.filter((a) => expanded.has(a.name));
}

export function printerAttributes(p: SimPrinter, ctx: OperationContext): IppOutAttribute[] {
  return [
    attr('printer-uri-supported', v.uri(ctx.printerUri)),
    attr('uri-security-supported', v.keyword('none')),
    attr('uri-authentication-supported', v.keyword('none')),
    attr('printer-name', v.name(p.name)),
    attr('printer-make-and-model', v.text(p.makeAndModel)),
    attr('printer-state', v.enum(p.state())),
    attr('printer-state-reasons', ...p.reasons().map((r) => v.keyword(r))),
    attr('printer-state-message', v.text(p.stateMessage())),
    attr('printer-is-accepting-jobs', v.boolean(!p.faults.notAccepting)),
    attr('queued-job-count', v.integer(p.queued())),
    attr('printer-up-time', v.integer(p.upTime())),
    attr('document-format-supported', ...p.formats.map((f) => v.mime(f))),
    attr('document-format-default', v.mime('application/octet-stream')),
    attr('copies-supported', v.range(1, p.copiesMax)),
    attr('copies-default', v.integer(1)),
    attr(
      'operations-supported',
      ...[
        Operation.printJob,
        Operation.validateJob,
        Operation.cancelJob,
        Operation.getJobAttributes,
        Operation.getJobs,
        Operation.getPrinterAttributes,
      ].map((o) => v.enum(o)),
    ),
    attr('ipp-versions-supported', v.keyword('1.1'), v.keyword('2.0')),
    attr('charset-configured', v.charset('utf-8')),
    attr('charset-supported', v.charset('us-ascii'), v.charset('utf-8')),
    attr('natural-language-configured', v.language('en')),
    attr('generated-natural-language-supported', v.language('en')),
    attr('pdl-override-supported', v.keyword('attempted')),
    attr('compression-supported', v.keyword('none')),
    attr(
      'which-jobs-supported',
      ...['completed', 'not-completed', 'aborted', 'all', 'canceled', 'pending', 'processing'].map((w) =>
        v.keyword(w),
      ),
    ),
  ];
}

function jobAttributes(p: SimPrinter, job: SimJob, ctx: OperationContext): IppOutAttribute[] {
  return [
    attr('job-id', v.integer(job.id)),
    attr('job-uri', v.uri(`${ctx.printerUri}/${job.id}`)),
    attr('job-printer-uri', v.uri(ctx.printerUri)),
    attr('job-name', v.name(job.name)),
    attr('job-originating-user-name', v.name(job.user)),
    attr('job-state', v.enum(job.state)),
    attr('job-state-reasons', ...job.reasons.map((r) => v.keyword(r))),
    attr('job-state-message', v.text(job.message)),
    attr('job-impressions', v.integer(job.pages)),
    attr('job-impressions-completed', v.integer(job.impressionsCompleted)),
    attr('copies', v.integer(job.copies)),
    attr('document-format', v.mime(job.format)),
    attr('time-at-creation', v.integer(job.createdAt)),
    attr('job-printer-up-time', v.integer(p.upTime())),
  ];
}

function jobGroup(attributes: IppOutAttribute[]): IppOutGroup {
  return { tag: GroupTag.job, attributes };
}

/** Answers one IPP request addressed to printer `p`. `document` is the data after the attributes. */
export function handlePrinterRequest(
  p: SimPrinter,
  request: IppMessage,
  ctx: OperationContext,
): IppOutMessage {
  const op = firstGroup(request, GroupTag.operation);
  const user = str(op, 'requesting-user-name') ?? 'anonymous';
  switch (request.code) {
    case Operation.getPrinterAttributes:
      return respond(request, Status.ok, undefined, [
        { tag: GroupTag.printer, attributes: filter(printerAttributes(p, ctx), requested(request)) },
      ]);
    case Operation.printJob:
    case Operation.validateJob: {
      const format = (str(op, 'document-format') ?? 'application/octet-stream').toLowerCase();
      if (!p.formats.includes(format)) {
        return respond(
          request,
          Status.attributesOrValues,
          'Unsupported document-format mimeMediaType value.',
          [{ tag: GroupTag.unsupported, attributes: [attr('document-format', v.mime(format))] }],
        );
      }
      const copies = num(firstGroup(request, GroupTag.job), 'copies') ?? 1;
      if (copies < 1 || copies > p.copiesMax) {
        return respond(request, Status.attributesOrValues, 'Unsupported copies integer value.', [
          { tag: GroupTag.unsupported, attributes: [attr('copies', v.integer(copies))] },
        ]);
      }
      if (p.faults.notAccepting) return respond(request, Status.notAcceptingJobs, 'Not accepting jobs.');
      if (request.code === Operation.validateJob) return respond(request, Status.ok, undefined);
      if (!request.data || request.data.length === 0)
        return respond(request, Status.badRequest, 'No file in request.');
      const job = p.accept({ name: str(op, 'job-name') ?? 'Untitled', user, format, copies }, request.data);
      return respond(request, Status.ok, undefined, [
        jobGroup(
          jobAttributes(p, job, ctx).filter((a) =>
            ['job-id', 'job-uri', 'job-state', 'job-state-reasons', 'job-state-message'].includes(a.name),
          ),
        ),
      ]);
    }
    case Operation.getJobAttributes: {
      const job = jobOf(p, op);
      if (!job) return respond(request, Status.notFound, 'Job not found.');
      return respond(request, Status.ok, undefined, [
        jobGroup(filter(jobAttributes(p, job, ctx), requested(request))),
      ]);
    }
    case Operation.getJobs: {
      const which = str(op, 'which-jobs') ?? 'not-completed';
      const states = WHICH[which];
      if (!states) {
        return respond(
          request,
          Status.attributesOrValues,
          `The which-jobs value "${which}" is not supported.`,
          [{ tag: GroupTag.unsupported, attributes: [attr('which-jobs', v.keyword(which))] }],
        );
      }
      const mine = bool(op, 'my-jobs') === true;
      if (mine && str(op, 'requesting-user-name') === undefined) {
        return respond(request, Status.badRequest, 'Need requesting-user-name with my-jobs.');
      }
      const limit = num(op, 'limit') ?? 0;
      const wanted = requested(request) ?? new Set(['job-id', 'job-uri']);
      const jobs = p
        .listed()
        .filter((j) => states.includes(j.state) && (!mine || j.user.toLowerCase() === user.toLowerCase()))
        .slice(0, limit > 0 ? limit : undefined);
      return respond(
        request,
        Status.ok,
        undefined,
        jobs.map((j) => jobGroup(filter(jobAttributes(p, j, ctx), wanted))),
      );
    }
    case Operation.cancelJob: {
      const job = jobOf(p, op);
      if (!job) return respond(request, Status.notFound, 'Job does not exist.');
      if (job.state >= JobState.canceled) {
        const what =
          job.state === JobState.canceled
            ? 'canceled'
            : job.state === JobState.aborted
              ? 'aborted'
              : 'completed';
        return respond(request, Status.notPossible, `Job #${job.id} is already ${what} - can't cancel.`);
      }
      p.cancel(job);
      return respond(request, Status.ok, undefined);
    }
    default:
      return respond(request, Status.operationNotSupported, 'Operation not supported.');
  }
}

const WHICH: Record<string, number[]> = {
  'not-completed': [JobState.pending, JobState.pendingHeld, JobState.processing, JobState.processingStopped],
  completed: [JobState.canceled, JobState.aborted, JobState.completed],
  all: [3, 4, 5, 6, 7, 8, 9],
  aborted: [JobState.aborted],
  canceled: [JobState.canceled],
  pending: [JobState.pending],
  processing: [JobState.processing],
};

function jobOf(p: SimPrinter, op: ReturnType<typeof firstGroup>): SimJob | undefined {
  const id = num(op, 'job-id') ?? Number(/\/(\d+)$/.exec(str(op, 'job-uri') ?? '')?.[1] ?? Number.NaN);
  return Number.isInteger(id) ? p.job(id) : undefined;
}

/** CUPS-Get-Printers at the server root: one printer group per printer. */
export function handleServerRequest(
  printers: ReadonlyArray<{ printer: SimPrinter; uri: string }>,
  request: IppMessage,
): IppOutMessage {
  if (request.code !== Operation.cupsGetPrinters) {
    return respond(request, Status.notFound, 'The printer or class does not exist.');
  }
  const wanted = requested(request);
  return respond(
    request,
    Status.ok,
    undefined,
    printers.map(({ printer, uri }) => ({
      tag: GroupTag.printer,
      attributes: filter(printerAttributes(printer, { printerUri: uri }), wanted),
    })),
  );
}

export function notFound(request: IppMessage, uri: string): IppOutMessage {
  return respond(request, Status.notFound, `printer-uri ${uri} not found.`);
}
