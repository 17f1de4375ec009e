import { deviceText } from '../../src/drivers-api/device-text.js';
import { type IppAnswer, type IppClient, type IppDocument, isSuccess } from './ipp-client.js';
import {
  attr,
  bool,
  firstGroup,
  groupsOf,
  type IppAttribute,
  num,
  range,
  str,
  strs,
  v,
} from './ipp-codec.js';
import { GroupTag, Operation, Status } from './ipp-constants.js';

/**
 * The IPP operations the driver uses, each reading only the attributes it asks for (RFC 8011
 * §4.2: Print-Job, Cancel-Job, Get-Job-Attributes, Get-Jobs, Get-Printer-Attributes; CUPS:
 * CUPS-Get-Printers). Transport failures reject (IppTransportError); IPP statuses are returned.
 */

export interface PrinterInfo {
  state?: number;
  reasons: string[];
  accepting?: boolean;
  formats: string[];
  copies?: { lower: number; upper: number };
  upTime?: number;
  queued?: number;
  name?: string;
  makeAndModel?: string;
  message?: string;
}

export interface JobInfo {
  id: number;
  state?: number;
  name?: string;
  user?: string;
  impressions?: number;
  impressionsCompleted?: number;
  reasons: string[];
  message?: string;
  /** `time-at-creation`, in the printer's `printer-up-time` units. */
  createdAt?: number;
}

const PRINTER_ATTRIBUTES = [
  'printer-state',
  'printer-state-reasons',
  'printer-state-message',
  'printer-is-accepting-jobs',
  'document-format-supported',
  'copies-supported',
  'printer-up-time',
  'queued-job-count',
  'printer-name',
  'printer-make-and-model',
];

const JOB_ATTRIBUTES = [
  'job-id',
  'job-name',
  'job-originating-user-name',
  'job-state',
  'job-state-reasons',
  'job-state-message',
  'job-impressions',
  'job-impressions-completed',
  'time-at-creation',
];

function keywords(...names: string[]) {
  return names.map((n) => v.keyword(n));
}

/**
 * A printer's words (names, messages, reasons) as one line of at most 160 characters: they reach
 * Notes, the page and the journal, and a printer may send 64 KiB with line breaks (issue 27).
 */
function text(attrs: Map<string, IppAttribute>, name: string): string | undefined {
  const value = str(attrs, name);
  return value === undefined ? undefined : deviceText(value);
}

/** The most state reasons kept from one answer: RFC 8011 defines about 60, a printer shows a few. */
const MAX_REASONS = 32;

function reasonsOf(attrs: Map<string, IppAttribute>, name: string): string[] {
  return strs(attrs, name)
    .slice(0, MAX_REASONS)
    .map((r) => deviceText(r));
}

type Reader<T> = (attrs: Map<string, IppAttribute>, name: string) => T | undefined;
/** Which attribute each optional field is read from, and how. */
type Fields<T> = { [K in keyof T]?: readonly [attribute: string, read: Reader<T[K]>] };

/** Sets each of `fields` on `target` from `attrs`, leaving out the attributes the answer lacks. */
function readFields<T extends object>(target: T, attrs: Map<string, IppAttribute>, fields: Fields<T>): T {
  for (const [key, spec] of Object.entries(fields) as Array<[keyof T, readonly [string, Reader<unknown>]]>) {
    const value = spec[1](attrs, spec[0]);
    if (value !== undefined) target[key] = value as T[keyof T];
  }
  return target;
}

const PRINTER_FIELDS: Fields<PrinterInfo> = {
  state: ['printer-state', num],
  accepting: ['printer-is-accepting-jobs', bool],
  copies: ['copies-supported', range],
  upTime: ['printer-up-time', num],
  queued: ['queued-job-count', num],
  name: ['printer-name', text],
  makeAndModel: ['printer-make-and-model', text],
  message: ['printer-state-message', text],
};

const JOB_FIELDS: Fields<JobInfo> = {
  state: ['job-state', num],
  name: ['job-name', text],
  user: ['job-originating-user-name', text],
  impressions: ['job-impressions', num],
  impressionsCompleted: ['job-impressions-completed', num],
  message: ['job-state-message', text],
  createdAt: ['time-at-creation', num],
};

export function printerInfo(attrs: Map<string, IppAttribute>): PrinterInfo {
  const info: PrinterInfo = {
    reasons: reasonsOf(attrs, 'printer-state-reasons'),
    formats: strs(attrs, 'document-format-supported').map((f) => f.toLowerCase()),
  };
  return readFields(info, attrs, PRINTER_FIELDS);
}

export function jobInfo(attrs: Map<string, IppAttribute>): JobInfo | undefined {
  const id = num(attrs, 'job-id');
  if (id === undefined) return undefined;
  return readFields<JobInfo>({ id, reasons: reasonsOf(attrs, 'job-state-reasons') }, attrs, JOB_FIELDS);
}

export interface OpOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  user: string;
}

export class IppOperations {
  constructor(private readonly client: IppClient) {}

  async printer(uri: string, o: OpOptions): Promise<{ answer: IppAnswer; info?: PrinterInfo }> {
    const answer = await this.client.call(
      uri,
      Operation.getPrinterAttributes,
      [
        attr('requesting-user-name', v.name(o.user)),
        attr('requested-attributes', ...keywords(...PRINTER_ATTRIBUTES)),
      ],
      o,
    );
    if (!isSuccess(answer.status)) return { answer };
    return { answer, info: printerInfo(firstGroup(answer.response, GroupTag.printer)) };
  }

  async print(
    uri: string,
    job: { name: string; format: string; copies: number | undefined },
    document: IppDocument,
    o: OpOptions,
  ): Promise<{ answer: IppAnswer; job?: JobInfo; ignored: string[] }> {
    const jobGroup =
      job.copies === undefined
        ? []
        : [{ tag: GroupTag.job, attributes: [attr('copies', v.integer(job.copies))] }];
    const answer = await this.client.call(
      uri,
      Operation.printJob,
      [
        attr('requesting-user-name', v.name(o.user)),
        attr('job-name', v.name(job.name)),
        attr('document-format', v.mime(job.format)),
      ],
      { ...o, document },
      jobGroup,
    );
    const ignored = [...firstGroup(answer.response, GroupTag.unsupported).keys()];
    if (!isSuccess(answer.status)) return { answer, ignored };
    const info = jobInfo(firstGroup(answer.response, GroupTag.job));
    return info ? { answer, job: info, ignored } : { answer, ignored };
  }

  async job(uri: string, jobId: number, o: OpOptions): Promise<{ answer: IppAnswer; job?: JobInfo }> {
    const answer = await this.client.call(
      uri,
      Operation.getJobAttributes,
      [
        attr('job-id', v.integer(jobId)),
        attr('requesting-user-name', v.name(o.user)),
        attr('requested-attributes', ...keywords(...JOB_ATTRIBUTES)),
      ],
      o,
    );
    if (!isSuccess(answer.status)) return { answer };
    const info = jobInfo(firstGroup(answer.response, GroupTag.job));
    return info ? { answer, job: info } : { answer };
  }

  /** Get-Jobs which-jobs=all, my-jobs=true: every job of `user` the printer still lists. */
  async jobs(uri: string, o: OpOptions): Promise<{ answer: IppAnswer; jobs: JobInfo[] }> {
    const answer = await this.client.call(
      uri,
      Operation.getJobs,
      [
        attr('requesting-user-name', v.name(o.user)),
        attr('which-jobs', v.keyword('all')),
        attr('my-jobs', v.boolean(true)),
        attr('requested-attributes', ...keywords(...JOB_ATTRIBUTES)),
      ],
      o,
    );
    if (!isSuccess(answer.status)) return { answer, jobs: [] };
    const jobs = groupsOf(answer.response, GroupTag.job)
      .map((g) => jobInfo(g.attributes))
      .filter((j): j is JobInfo => j !== undefined);
    return { answer, jobs };
  }

  async cancel(uri: string, jobId: number, o: OpOptions): Promise<IppAnswer> {
    return this.client.call(
      uri,
      Operation.cancelJob,
      [attr('job-id', v.integer(jobId)), attr('requesting-user-name', v.name(o.user))],
      o,
    );
  }

  /** CUPS-Get-Printers on a CUPS server: every queue with its state. */
  async cupsQueues(serverUri: string, o: OpOptions): Promise<Array<PrinterInfo & { uri?: string }>> {
    const answer = await this.client.call(
      serverUri,
      Operation.cupsGetPrinters,
      [
        attr('requesting-user-name', v.name(o.user)),
        attr(
          'requested-attributes',
          ...keywords(...PRINTER_ATTRIBUTES, 'printer-uri-supported', 'device-uri'),
        ),
      ],
      o,
    );
    if (answer.status === Status.notFound || !isSuccess(answer.status)) return [];
    return groupsOf(answer.response, GroupTag.printer).map((g) => {
      const info: PrinterInfo & { uri?: string } = printerInfo(g.attributes);
      const uri = str(g.attributes, 'printer-uri-supported');
      if (uri) info.uri = uri;
      return info;
    });
  }
}
