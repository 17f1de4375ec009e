import type { Agent } from 'undici';
import type {
  DeviceStatus,
  Driver,
  DriverContext,
  ExecuteContext,
  Job,
  JobResult,
  Reconciliation,
} from '../../src/drivers-api/types.js';
import { AgentError, toAgentError } from '../../src/errors.js';
import type { EpsonFpmateOptions } from './config.js';
import { fpmateEndpoint, tlsDispatcher } from './http.js';
import { Mutex, PrinterLink } from './link.js';
import { fiscalData, PrinterMemory, planJob } from './plan.js';
import { decide, readCheckpoint } from './recovery.js';
import { receiptResult } from './results.js';
import { sendPlanned } from './send.js';
import { StatusBoard } from './status.js';

const REFRESH_AFTER = new Set([
  'DEVICE_UNAVAILABLE',
  'DEVICE_BUSY',
  'DEVICE_ERROR',
  'PAPER_OUT',
  'COVER_OPEN',
  'STATE_UNKNOWN',
]);

function shown(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return 'invalid address';
  }
}

/**
 * The Epson RT (fpmate) driver. Every exchange with the printer runs under one mutex, so a status
 * poll never interleaves with a receipt. See README.md for the exactly-once rules.
 */
export class EpsonFpmateDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly board: StatusBoard;
  private readonly memory: PrinterMemory;
  private dispatcher: Agent | undefined;
  private dispatcherReady = false;
  private address: string | undefined;
  private link: PrinterLink | undefined;
  private poller: AbortController | undefined;

  constructor(
    private readonly options: EpsonFpmateOptions,
    private readonly ctx: DriverContext,
  ) {
    this.ensureDispatcher();
    if (options.tls?.insecure) {
      ctx.log.warn('TLS verification of the fiscal printer is off (tls.insecure: true)');
    }
    this.address = options.url;
    this.memory = new PrinterMemory(ctx.store, options.serialNumber);
    this.board = new StatusBoard(ctx.clock, () => (this.address ? shown(this.address) : undefined));
    const serial = this.memory.serial();
    if (serial) this.board.noteSerial(serial);
  }

  /** Idempotent. Rejects with DEVICE_UNAVAILABLE when a configured printer does not answer. */
  async open(signal: AbortSignal): Promise<void> {
    if (this.poller) return;
    if (this.address) {
      const reachable = await this.mutex.run(() => this.refresh(signal));
      if (signal.aborted) throw new AgentError('ABORTED', 'Opening the printer was stopped');
      if (!reachable) {
        throw new AgentError(
          'DEVICE_UNAVAILABLE',
          `Fiscal printer at ${shown(this.address)} does not answer`,
          {
            notes: 'The fiscal printer does not answer; check that it is switched on and connected.',
          },
        );
      }
    }
    this.startPolling();
  }

  async execute(job: Job, ectx: ExecuteContext): Promise<JobResult> {
    const fiscal = fiscalData(job);
    const link = this.linkFor(this.options.url ?? fiscal.apiUrl);
    return this.mutex.run(async () => {
      try {
        const doc = fiscal.document;
        if (doc.type === 'data' && doc.isRefund && !doc.printerSerialNumber && !this.memory.serial()) {
          await this.learnFrom(link, ectx.signal);
        }
        const plan = await planJob(fiscal, this.options, {
          platform: this.ctx.platform,
          signal: ectx.signal,
          timeZone: this.ctx.timezone,
          ownSerial: this.memory.serial(),
        });
        ectx.progress(0.2);
        return await sendPlanned(this.deps(link), plan, ectx);
      } catch (e) {
        const error = toAgentError(e);
        this.board.noteJobError(error);
        if (REFRESH_AFTER.has(error.code)) this.scheduleRefresh();
        throw error;
      }
    });
  }

  async reconcile(job: Job, signal: AbortSignal): Promise<Reconciliation> {
    const checkpoint = readCheckpoint(job.checkpoint);
    if (!checkpoint) return { outcome: 'not-done' };
    if (checkpoint.phase === 'done') return { outcome: 'done', result: checkpoint.result };
    const what =
      checkpoint.label === 'refund'
        ? 'refund receipt'
        : checkpoint.kind === 'receipt'
          ? 'receipt'
          : 'document';
    const staff = (reason: string) =>
      `The agent stopped while a ${what} was being sent and ${reason}. Check the printer’s last receipt: if it is there, do nothing; if not, issue it again.`;
    if (checkpoint.kind !== 'receipt')
      return { outcome: 'unknown', reason: staff('cannot tell whether the printer did it') };
    let link: PrinterLink;
    try {
      link = this.linkFor(this.options.url ?? fiscalData(job).apiUrl);
    } catch {
      return { outcome: 'unknown', reason: staff('does not know the printer’s address') };
    }
    return this.mutex.run(async () => {
      const last = await link.readLastDocument(signal);
      if (last) {
        this.memory.learn(last);
        this.board.noteSerial(last.serial);
        this.board.touched();
      }
      const decision = decide(checkpoint.baseline, last, checkpoint.expectedCents);
      if (decision.outcome === 'unknown') return { outcome: 'unknown', reason: staff(decision.reason) };
      if (decision.outcome === 'not-printed') {
        await link.reset();
        return { outcome: 'not-done' };
      }
      const d = decision.document;
      const result = receiptResult(
        {
          z: d.z,
          doc: d.doc,
          dateTime: d.dateTime,
          serial: d.serial || this.memory.serial(),
          totalCents: d.totalCents,
          refund: checkpoint.label === 'refund',
          reference: checkpoint.reference,
          recovered: true,
          warnings: [],
        },
        this.options.currency,
      );
      return { outcome: 'done', result };
    });
  }

  status(): DeviceStatus {
    try {
      return this.board.snapshot();
    } catch (e) {
      return {
        connected: false,
        summary: `status unavailable (${(e as Error).message})`,
        warnings: [],
        facts: {},
      };
    }
  }

  /** Idempotent: stops polling, waits for the exchange in progress, releases connections. */
  async close(): Promise<void> {
    this.poller?.abort();
    this.poller = undefined;
    await this.mutex.run(async () => undefined);
    const dispatcher = this.dispatcher;
    this.dispatcher = undefined;
    this.dispatcherReady = false;
    this.link = undefined;
    await dispatcher?.close().catch(() => undefined);
  }

  private ensureDispatcher(): Agent | undefined {
    if (!this.dispatcherReady) {
      this.dispatcher = tlsDispatcher(this.options.tls);
      this.dispatcherReady = true;
    }
    return this.dispatcher;
  }

  private linkFor(address: string | undefined): PrinterLink {
    if (!address) {
      throw new AgentError(
        'COMMAND_INVALID',
        'No printer address: neither options.url nor the command’s ApiUrl',
        {
          notes:
            'The agent does not know the fiscal printer’s address; nothing was printed. Ask IT to set it.',
        },
      );
    }
    fpmateEndpoint(address, this.options.devid, this.options.printerTimeoutMs);
    if (!this.link || this.link.address !== address) {
      const dispatcher = this.ensureDispatcher();
      this.link = new PrinterLink(address, this.options, this.ctx.fetch, dispatcher, this.ctx.log);
      this.address = address;
    }
    return this.link;
  }

  private deps(link: PrinterLink) {
    return {
      link,
      memory: this.memory,
      board: this.board,
      options: this.options,
      clock: this.ctx.clock,
      log: this.ctx.log,
    };
  }

  private async learnFrom(link: PrinterLink, signal?: AbortSignal): Promise<void> {
    const last = await link.readLastDocument(signal);
    if (!last) return;
    this.memory.learn(last);
    this.board.noteSerial(last.serial);
  }

  /** One status poll (call under the mutex). Resolves false when the printer does not answer. */
  private async refresh(signal?: AbortSignal): Promise<boolean> {
    if (!this.address) return false;
    const link = this.linkFor(this.address);
    const response = await link.queryStatus(signal);
    if (!response) {
      this.board.unreachable('no answer');
      return false;
    }
    this.board.answered(response);
    if (!this.memory.serial()) await this.learnFrom(link, signal);
    return true;
  }

  private scheduleRefresh(): void {
    if (!this.address) return;
    void this.mutex.run(() => this.refresh()).catch(() => undefined);
  }

  private startPolling(): void {
    if (this.poller || this.options.statusIntervalMs === 0) {
      this.poller ??= new AbortController();
      return;
    }
    const controller = new AbortController();
    this.poller = controller;
    const loop = async () => {
      while (!controller.signal.aborted) {
        const delay = this.board.isConnected() ? this.options.statusIntervalMs : this.options.statusRetryMs;
        try {
          await this.ctx.clock.sleep(delay, controller.signal);
        } catch {
          return;
        }
        await this.mutex.run(() => this.refresh(controller.signal)).catch(() => undefined);
      }
    };
    void loop();
  }
}
