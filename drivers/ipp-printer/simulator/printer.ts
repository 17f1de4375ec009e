import { createHash } from 'node:crypto';
import { type Clock, systemClock } from '../../../src/clock.js';
import type { Logger } from '../../../src/log.js';
import { JOB_STATE_NAMES, JobState, PrinterState } from '../ipp-constants.js';

/**
 * The model behind the IPP printer simulator: one printer with a job queue that "prints" one
 * impression per `pageMs`, fault switches for what front-desk printers do (paper out, door open,
 * paused, not accepting, never reporting the end), and the record of every document it received
 * (the spool) and printed. Its behaviour follows CUPS's `ippeveprinter`
 * (OpenPrinting/cups:tools/ippeveprinter.c): completed jobs stay listed for `historyMs` and are
 * dropped oldest first; a cancelled job in progress stops at the next page; time values are
 * seconds since the printer started (`printer-up-time`).
 */

export interface SimPrinterFaults {
  /** Paper out: printer stopped, `media-empty-error`, jobs wait until it is turned off. */
  mediaEmpty: boolean;
  /** Door open: printer stopped, `door-open-error`. */
  doorOpen: boolean;
  /** Toner low: a warning only (`toner-low-report`). */
  tonerLow: boolean;
  /** Queue paused: printer stopped with `paused`; accepted jobs wait. */
  paused: boolean;
  /** `printer-is-accepting-jobs` false: Print-Job answers server-error-not-accepting-jobs. */
  notAccepting: boolean;
  /** Jobs start but never report completion (a printer that never reports). */
  neverComplete: boolean;
}

export interface SpooledDocument {
  printer: string;
  jobId: number;
  jobName: string;
  user: string;
  format: string;
  copies: number;
  pages: number;
  bytes: number;
  sha256: string;
}

export interface SimJob {
  id: number;
  name: string;
  user: string;
  format: string;
  copies: number;
  pages: number;
  state: number;
  impressionsCompleted: number;
  /** printer-up-time units. */
  createdAt: number;
  completedAt?: number;
  cancelRequested: boolean;
  reasons: string[];
  message: string;
}

export interface SimPrinterOptions {
  name: string;
  formats?: string[];
  copiesMax?: number;
  makeAndModel?: string;
  /** Time one impression takes. */
  pageMs?: number;
  /** How long finished jobs stay listed (ippeveprinter: 60 s). */
  historyMs?: number;
  clock?: Clock;
  log?: Logger;
}

/** Pages of a PDF, counted on the bytes (`/Type /Page` objects), at least 1; other formats: 1. */
export function countPages(format: string, document: Buffer): number {
  if (format !== 'application/pdf') return 1;
  let pages = 0;
  for (let at = document.indexOf('/Type'); at >= 0; at = document.indexOf('/Type', at + 5)) {
    let i = at + 5;
    while (i < document.length && (document[i] === 0x20 || document[i] === 0x0a || document[i] === 0x0d)) i++;
    if (document.toString('latin1', i, i + 5) === '/Page' && document[i + 5] !== 0x73 /* s */) pages++;
  }
  return Math.max(1, pages);
}

export class SimPrinter {
  readonly faults: SimPrinterFaults = {
    mediaEmpty: false,
    doorOpen: false,
    tonerLow: false,
    paused: false,
    notAccepting: false,
    neverComplete: false,
  };
  readonly jobs: SimJob[] = [];
  readonly spooled: SpooledDocument[] = [];
  readonly printed: SpooledDocument[] = [];
  readonly formats: string[];
  readonly copiesMax: number;
  readonly makeAndModel: string;
  private nextId = 1;
  private readonly started: number;
  private readonly clock: Clock;
  private readonly pageMs: number;
  private readonly historyMs: number;
  private running = false;
  private stopper = new AbortController();
  private wake: (() => void) | undefined;

  constructor(readonly options: SimPrinterOptions) {
    this.clock = options.clock ?? systemClock;
    this.started = this.clock.now();
    this.formats = options.formats ?? [
      'application/octet-stream',
      'application/pdf',
      'image/jpeg',
      'image/png',
    ];
    this.copiesMax = options.copiesMax ?? 999;
    this.makeAndModel = options.makeAndModel ?? 'Frontdesk Simulated LaserJet';
    this.pageMs = options.pageMs ?? 200;
    this.historyMs = options.historyMs ?? 60_000;
  }

  get name(): string {
    return this.options.name;
  }

  upTime(): number {
    return Math.floor((this.clock.now() - this.started) / 1000);
  }

  state(): number {
    if (this.stoppedNow()) return PrinterState.stopped;
    return this.jobs.some((j) => j.state === JobState.processing)
      ? PrinterState.processing
      : PrinterState.idle;
  }

  private stoppedNow(): boolean {
    return this.faults.mediaEmpty || this.faults.doorOpen || this.faults.paused;
  }

  reasons(): string[] {
    const out: string[] = [];
    if (this.faults.mediaEmpty) out.push('media-empty-error', 'media-needed-error');
    if (this.faults.doorOpen) out.push('door-open-error');
    if (this.faults.paused) out.push('paused');
    if (this.faults.tonerLow) out.push('toner-low-report');
    return out.length > 0 ? out : ['none'];
  }

  stateMessage(): string {
    if (this.faults.mediaEmpty) return 'Out of paper.';
    if (this.faults.doorOpen) return 'Door open.';
    if (this.faults.paused) return 'Paused.';
    return this.state() === PrinterState.processing ? 'Printing.' : 'Idle.';
  }

  queued(): number {
    return this.jobs.filter((j) => j.state < JobState.canceled).length;
  }

  setFault<K extends keyof SimPrinterFaults>(name: K, value: SimPrinterFaults[K]): void {
    this.faults[name] = value;
    this.kick();
  }

  /** Accepts a document as a new job (the caller checked format and copies). */
  accept(job: { name: string; user: string; format: string; copies: number }, document: Buffer): SimJob {
    this.clean();
    const pages = countPages(job.format, document);
    const created: SimJob = {
      id: this.nextId++,
      ...job,
      pages,
      state: JobState.pending,
      impressionsCompleted: 0,
      createdAt: this.upTime(),
      cancelRequested: false,
      reasons: ['none'],
      message: 'Job pending.',
    };
    this.jobs.push(created);
    this.spooled.push({
      printer: this.name,
      jobId: created.id,
      jobName: job.name,
      user: job.user,
      format: job.format,
      copies: job.copies,
      pages,
      bytes: document.length,
      sha256: createHash('sha256').update(document).digest('hex'),
    });
    this.options.log?.debug('simulated printer accepted a job', {
      printer: this.name,
      jobId: created.id,
      pages,
      copies: job.copies,
    });
    this.kick();
    return created;
  }

  job(id: number): SimJob | undefined {
    this.clean();
    return this.jobs.find((j) => j.id === id);
  }

  listed(): SimJob[] {
    this.clean();
    return [...this.jobs];
  }

  /** Cancel-Job: a pending job ends at once, one in progress at its next page. */
  cancel(job: SimJob): void {
    if (job.state === JobState.processing) {
      job.cancelRequested = true;
      job.reasons = ['processing-to-stop-point'];
      this.kick();
      return;
    }
    this.finish(job, JobState.canceled, ['job-canceled-by-user'], 'Job canceled.');
  }

  private finish(job: SimJob, state: number, reasons: string[], message: string): void {
    job.state = state;
    job.reasons = reasons;
    job.message = message;
    job.completedAt = this.clock.now();
    if (state === JobState.completed) {
      const doc = this.spooled.find((d) => d.jobId === job.id);
      if (doc) this.printed.push(doc);
    }
  }

  /** Drops finished jobs older than `historyMs`, oldest first (ippeveprinter's clean_jobs). */
  private clean(): void {
    const cutoff = this.clock.now() - this.historyMs;
    while (this.jobs.length > 0) {
      const first = this.jobs[0] as SimJob;
      if (first.completedAt === undefined || first.completedAt >= cutoff) break;
      this.jobs.shift();
    }
  }

  private kick(): void {
    this.wake?.();
    if (!this.running) void this.run();
  }

  /** The marking engine: one job at a time, one impression per `pageMs`. */
  private async run(): Promise<void> {
    this.running = true;
    const signal = this.stopper.signal;
    try {
      for (;;) {
        if (signal.aborted) return;
        const job = this.jobs.find((j) => j.state === JobState.pending || j.state === JobState.processing);
        if (!job) return;
        if (job.cancelRequested) {
          this.finish(job, JobState.canceled, ['job-canceled-by-user'], 'Job canceled.');
          continue;
        }
        const total = job.pages * job.copies;
        if (this.stoppedNow() || (this.faults.neverComplete && job.impressionsCompleted >= total)) {
          if (job.state === JobState.processing && this.stoppedNow()) job.reasons = ['printer-stopped'];
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
          this.wake = undefined;
          continue;
        }
        job.state = JobState.processing;
        job.reasons = ['job-printing'];
        job.message = 'Job printing.';
        if (job.impressionsCompleted >= total) {
          this.finish(job, JobState.completed, ['job-completed-successfully'], 'Job completed.');
          continue;
        }
        try {
          await this.clock.sleep(this.pageMs, signal);
        } catch {
          return;
        }
        if (!this.stoppedNow()) job.impressionsCompleted++;
      }
    } finally {
      this.running = false;
    }
  }

  stop(): void {
    this.stopper.abort();
    this.wake?.();
  }

  describeJob(job: SimJob): string {
    return `${job.id} ${job.name} ${JOB_STATE_NAMES[job.state]}`;
  }
}
