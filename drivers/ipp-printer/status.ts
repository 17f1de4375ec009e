import type { Clock } from '../../src/clock.js';
import type { sharedLabels } from '../../src/drivers-api/messages.js';
import type { DeviceStatus, FactsOf, FactValue } from '../../src/drivers-api/types.js';
import type { Message } from '../../src/messages/message.js';
import { PrinterState } from './ipp-constants.js';
import { type ippLabels, ippMessages } from './messages.js';
import type { PrinterInfo } from './operations.js';
import { describeReasons, type PrinterReason } from './reasons.js';

/**
 * What the driver knows of its printers, for `status()` (the status page's device card and the
 * device metrics): per printer its state and reasons in words, the jobs waiting on it, the last
 * job. Pure bookkeeping: never throws, never does I/O.
 */

interface PrinterView {
  label: string;
  uri: string;
  reachable: boolean | undefined;
  lastContact?: number;
  info?: PrinterInfo;
  reasons: PrinterReason[];
  problem?: Message;
}

/**
 * The device's facts: the family's labelled ones, and one `printerState:<name>` per printer (its
 * label, "Printer {name}", takes the printer's name).
 */
type PrinterFacts = FactsOf<typeof sharedLabels & typeof ippLabels> & {
  [printer: `printerState:${string}`]: FactValue;
};

export interface LastJob {
  printer: string;
  jobId?: number;
  outcome: Message;
  at: number;
}

export class StatusBoard {
  private readonly printers = new Map<string, PrinterView>();
  private lastJob: LastJob | undefined;
  /** A standing problem of the configuration, not of a printer (owner-account.ts). */
  private configProblem: Message | undefined;
  private printed = 0;
  private failed = 0;

  constructor(private readonly clock: Clock) {}

  /** Makes a printer known (shown as "not contacted yet" until it answers). */
  track(label: string, uri: string): void {
    if (!this.printers.has(uri)) this.printers.set(uri, { label, uri, reachable: undefined, reasons: [] });
  }

  answered(label: string, uri: string, info: PrinterInfo): void {
    this.track(label, uri);
    const view = this.printers.get(uri) as PrinterView;
    view.reachable = true;
    view.lastContact = this.clock.now();
    view.info = info;
    view.reasons = describeReasons(info.reasons);
    delete view.problem;
  }

  /** The printer did not answer, or answered with an IPP error (`why`, in words). */
  unreachable(label: string, uri: string, why: Message): void {
    this.track(label, uri);
    const view = this.printers.get(uri) as PrinterView;
    view.reachable = false;
    view.problem = why;
  }

  jobEnded(job: LastJob, ok: boolean): void {
    this.lastJob = job;
    if (ok) this.printed++;
    else this.failed++;
  }

  /** Shows (or, with undefined, clears) a problem of the configuration among the warnings. */
  configurationProblem(problem: Message | undefined): void {
    this.configProblem = problem;
  }

  reasonsOf(uri: string): PrinterReason[] {
    return this.printers.get(uri)?.reasons ?? [];
  }

  /** True when every printer tracked so far answered its last contact. */
  isHealthy(): boolean {
    const views = [...this.printers.values()];
    return (
      views.length > 0 && views.every((p) => p.reachable === true && p.reasons.every((r) => !r.blocking))
    );
  }

  snapshot(): DeviceStatus {
    const views = [...this.printers.values()];
    const problems: Message[] = [];
    const facts: PrinterFacts = {};
    let lastContact: number | undefined;
    for (const p of views) {
      if (p.lastContact !== undefined) lastContact = Math.max(lastContact ?? 0, p.lastContact);
      facts[`printerState:${p.label}`] = this.line(p);
      if (p.reachable === false) {
        problems.push(
          ippMessages.notAnsweringBecause({ printer: p.label, problem: p.problem ?? ippMessages.noAnswer() }),
        );
      }
      for (const r of p.reasons) {
        if (r.severity === 'report' && !r.blocking) continue;
        problems.push(ippMessages.problem({ printer: p.label, reason: r.sentence }));
      }
      if (p.info?.accepting === false && !p.reasons.some((r) => r.keyword === 'paused')) {
        problems.push(ippMessages.notAcceptingWarning({ printer: p.label }));
      }
    }
    const warnings = [...problems, ...(this.configProblem ? [this.configProblem] : [])].map((problem) =>
      ippMessages.reasonWarning({ problem }),
    );
    // A printer reporting `media-empty` (any severity; RFC 8011 §5.4.12): the device is out of paper.
    const answering = views.filter((p) => p.reachable === true);
    facts.paperOut =
      answering.length === 0
        ? null
        : answering.some((p) => p.reasons.some((r) => r.keyword === 'media-empty'));
    facts['jobs printed'] = this.printed;
    facts['jobs failed'] = this.failed;
    facts['last job'] = this.lastJob ? this.describeLast(this.lastJob) : null;
    const connected = views.length > 0 && views.every((p) => p.reachable === true);
    const summary =
      views.length === 0
        ? ippMessages.noPrinterContacted()
        : views.every((p) => p.reachable === undefined)
          ? ippMessages.notContacted()
          : (problems[0] ??
            (views.length === 1
              ? ippMessages.readyOne({ line: this.line(views[0] as PrinterView) })
              : ippMessages.readyMany({ count: views.length })));
    const staffFacts = [...views.map((p) => `printerState:${p.label}`), 'paperOut', 'last job'];
    const out: DeviceStatus = { connected, summary, warnings, facts, staffFacts };
    if (lastContact !== undefined) out.lastContact = lastContact;
    return out;
  }

  private line(p: PrinterView): Message {
    if (p.reachable === undefined) return ippMessages.notContacted();
    if (p.reachable === false)
      return ippMessages.lineNotAnswering({ problem: p.problem ?? ippMessages.noAnswer() });
    const state = p.info?.state;
    const stateName =
      state === PrinterState.idle
        ? ippMessages.stateIdle()
        : state === PrinterState.processing
          ? ippMessages.stateProcessing()
          : state === PrinterState.stopped
            ? ippMessages.stateStopped()
            : state !== undefined
              ? ippMessages.stateUnknown()
              : ippMessages.stateAnswering();
    const queued = p.info?.queued;
    return queued === undefined ? stateName : ippMessages.lineQueued({ state: stateName, queued });
  }

  private describeLast(job: LastJob): Message {
    return job.jobId !== undefined
      ? ippMessages.lastJob({ job: job.jobId, printer: job.printer, outcome: job.outcome })
      : ippMessages.lastJobNoId({ printer: job.printer, outcome: job.outcome });
  }
}
