import { statusOrUnavailable } from '../../../src/drivers-api/status.js';
import type * as contract from '../../../src/drivers-api/types.js';
import { AgentError, toAgentError } from '../../../src/errors.js';
import { httpTlsOptions } from '../../../src/transport/tls-config.js';
import { ClosureScheduler } from './closure-scheduler.js';
import type { RtFamily, RtLink, RtOptions, RtParts } from './family.js';
import { FiscalState } from './fiscal-state.js';
import { PrinterLine } from './printer-line.js';
import { reconcileSending } from './reconcile.js';

/** The printer's origin for a sentence (never a path, a user or a password). */
export function shownAddress(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return 'invalid address';
  }
}

/**
 * One RT driver for every family (`family.ts`). Every exchange with the printer runs in the
 * printer's turn — its line's one mutex (`printer-line.ts`): the printer takes one request at a
 * time (Custom directIO manual rev 6.00 p.20; fiskaltrust `scu-it` serialises every request to a
 * printer), so a status poll, the scheduled closure and a staff action never interleave with a
 * receipt. **Plan before the turn** (issue 42 item 5): a job's bill is read and its document
 * built and checked before the turn is taken, so a platform outage delays only that job — never
 * the polls, the staff actions or the scheduled Z report behind it.
 */
export class RtDriver<O extends RtOptions, L extends RtLink, P> implements contract.Driver {
  private readonly line: PrinterLine<L>;
  private readonly parts: RtParts<L, P>;
  private readonly state: FiscalState;
  private readonly scheduler: ClosureScheduler | undefined;
  private readonly actionList: readonly contract.DeviceAction[];
  private opened = false;

  constructor(
    private readonly options: O,
    private readonly ctx: contract.DriverContext,
    family: RtFamily<O, L, P>,
    configuredAddress: string | undefined,
  ) {
    const tls = httpTlsOptions(options.tls as Parameters<typeof httpTlsOptions>[0]);
    if ((options.tls as { insecure?: boolean } | undefined)?.insecure) {
      ctx.log.warn('TLS verification of the fiscal printer is off (tls.insecure: true)');
    }
    this.state = new FiscalState(ctx.store);
    this.parts = family.parts({ options, ctx, state: this.state });
    const parts = this.parts;
    this.line = new PrinterLine({
      address: configuredAddress,
      checkAddress: (address) => parts.checkAddress(address),
      http: () => ctx.http({ tls }),
      link: (address, http) => parts.link(address, http),
      addressUnknown: () => parts.words.addressUnknown(),
    });
    this.scheduler = options.dailyClosure.enabled
      ? new ClosureScheduler({
          clock: ctx.clock,
          timeZone: ctx.timezone,
          options: options.dailyClosure,
          state: this.state,
          log: ctx.log.child({ component: 'daily-closure' }),
          ready: () => this.line.address !== undefined,
          close: (date, signal) =>
            this.line.mutex.run(() => parts.closure.close(this.line.currentLink(), signal, date)),
          settle: (signal) =>
            this.line.mutex.run(() => parts.closure.settle(this.line.currentLink(), signal)),
          words: parts.words.closure,
        })
      : undefined;
    this.actionList = parts.actions((work) => this.staffTurn(work));
  }

  /**
   * Idempotent once it resolved. Starts the background work (status polls, the closure
   * schedule), then — with a known address — checks that the printer answers and settles what a
   * kill left in flight (a staff void, a Z report). Rejects with DEVICE_UNAVAILABLE when the
   * printer does not answer (the background keeps polling).
   */
  async open(signal: AbortSignal): Promise<void> {
    if (this.opened) return;
    this.startBackground();
    const address = this.line.address;
    if (address) {
      const reachable = await this.line.mutex.run(() => this.refresh(signal));
      if (signal.aborted) throw new AgentError('ABORTED', 'Opening the printer was stopped');
      if (!reachable) {
        throw new AgentError(
          'DEVICE_UNAVAILABLE',
          `Fiscal printer at ${shownAddress(address)} does not answer`,
          {
            notes: this.parts.words.notAnswering(),
          },
        );
      }
      const link = this.line.currentLink();
      await this.line.mutex.run(async () => {
        await this.parts.settleOnOpen(link, signal);
        // With a schedule, its first step settles a closure left in flight (and files the date).
        if (!this.scheduler && this.state.closureInFlight() !== undefined)
          await this.parts.closure.settle(link, signal);
      });
    }
    this.opened = true;
  }

  actions(): readonly contract.DeviceAction[] {
    return this.actionList;
  }

  async execute(job: contract.Job, ectx: contract.ExecuteContext): Promise<contract.JobResult> {
    const link = this.line.linkFor(this.parts.address(job));
    try {
      if (ectx.signal.aborted) throw new AgentError('ABORTED', 'Stopped before anything was sent');
      await this.line.mutex.run(() => this.parts.beforePlan(job, link, ectx.signal));
      // The plan: the bill read (waiting out a platform outage) and the document checked, outside the turn.
      const plan = await this.parts.plan(job, ectx.signal);
      ectx.progress(0.2);
      return await this.line.mutex.run(() => this.parts.print(link, plan, ectx));
    } catch (e) {
      const error = toAgentError(e);
      this.parts.board.noteJobError(error);
      // The job's last exchange got no answer: status() says so now, not after the next poll.
      if (link.lastFailure) this.parts.board.unreachable(link.lastFailure);
      if (this.parts.refreshAfter.has(error.code)) this.scheduleRefresh();
      throw error;
    }
  }

  reconcile(job: contract.Job, signal: AbortSignal): Promise<contract.Reconciliation> {
    const link = this.line.linkOrNone(() => this.parts.address(job));
    return reconcileSending(
      { ...this.parts.reconcile(job, link), exclusive: (work) => this.line.mutex.run(work) },
      signal,
    );
  }

  status(): contract.DeviceStatus {
    return statusOrUnavailable(() => this.parts.board.snapshot());
  }

  /** Idempotent: stops the background work, waits for the exchange in progress, releases connections. */
  async close(): Promise<void> {
    this.opened = false;
    await this.line.close();
  }

  /**
   * A staff action's turn. While a document waits for the printer to come back (settling), the
   * action is refused at once rather than queued for up to `settleUnansweredForMinutes`.
   */
  private staffTurn<T>(work: (link: L) => Promise<T>): Promise<T> {
    if (this.parts.board.isSettling()) {
      return Promise.reject(
        new AgentError('DEVICE_BUSY', 'A document waits for the printer to answer', {
          notes: this.parts.words.busySettling(),
        }),
      );
    }
    return this.line.mutex.run(async () => {
      const link = this.line.currentLink();
      try {
        return await work(link);
      } catch (e) {
        const error = toAgentError(e);
        this.parts.board.noteJobError(error);
        throw error;
      }
    });
  }

  /** One status poll (call in the turn). Resolves false when the printer does not answer. */
  private refresh(signal?: AbortSignal): Promise<boolean> {
    const address = this.line.address;
    if (!address) return Promise.resolve(false);
    return this.parts.refresh(this.line.linkFor(address), signal);
  }

  private scheduleRefresh(): void {
    if (!this.line.address) return;
    void this.line.mutex.run(() => this.refresh()).catch(() => undefined);
  }

  private startBackground(): void {
    this.line.startBackground({
      clock: this.ctx.clock,
      scheduler: this.scheduler,
      intervalMs: this.options.statusIntervalMs,
      retryMs: this.options.statusRetryMs,
      connected: () => this.parts.board.isConnected(),
      poll: (signal) => this.refresh(signal),
    });
  }
}
