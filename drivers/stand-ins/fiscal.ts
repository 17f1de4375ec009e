import { z } from 'zod';
import type { FiscalJobData } from '../../src/connector/model.js';
import { jobDataOf } from '../../src/drivers-api/job-data.js';
import type { sharedLabels } from '../../src/drivers-api/messages.js';
import type {
  Driver,
  DriverContext,
  DriverFactory,
  ExecuteContext,
  FactsOf,
  Job,
  JobResult,
  Reconciliation,
} from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { base64Length } from '../../src/transport/base64.js';
import type { LedgerEntry } from './ledger.js';
import { type simFiscalLabels, simMessages } from './messages.js';
import { type SimOptions, SimOptionsSchema, scriptFor, simulatedWork } from './script.js';
import { SimDriver } from './stand-in-driver.js';

/**
 * A simulated RT fiscal printer. It checks what a real one would refuse before printing (bad
 * Base64, a bill whose lines and payments do not add up), "prints" by appending to its ledger
 * (its memory of emitted documents, numbered Z-document like an RT), and answers `reconcile()`
 * from that memory — so it keeps the at-most-once promise across crashes just as the real driver
 * must.
 */
export const simFiscalFactory: DriverFactory<SimOptions> = {
  kind: 'sim-fiscal',
  deviceType: 'FiscalMachine',
  configSchema: SimOptionsSchema,
  create: (options, ctx) => new SimFiscalDriver(options, ctx),
};

/** What the driver checkpoints: before the document is emitted, and after, with its number. */
const CheckpointSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('printing') }),
  z.object({ phase: z.literal('printed'), receipt: z.string().min(1) }),
]);

function fiscalData(job: Job): FiscalJobData {
  return jobDataOf(job, 'fiscal');
}

function receiptLabel(entry: LedgerEntry): string {
  return String(entry.facts.receipt);
}

class SimFiscalDriver extends SimDriver implements Driver {
  private readonly serial: string;

  constructor(
    private readonly options: SimOptions,
    ctx: DriverContext,
  ) {
    super(ctx, options, { ready: simMessages.printerReady(), notOpened: simMessages.printerNotOpened() });
    this.serial = `99SIM${ctx.deviceId
      .replace(/[^0-9A-Za-z]/g, '')
      .slice(0, 6)
      .toUpperCase()}`;
  }

  async execute(job: Job, ctx: ExecuteContext): Promise<JobResult> {
    const fiscal = fiscalData(job);
    const total = await this.validate(fiscal, ctx.signal);
    const script = scriptFor(fiscal.machineSettings, this.options, this.random);
    ctx.progress(0.1);
    await simulatedWork(this.ctx.clock, script.durationMs / 2, ctx.signal);
    if (script.outcome !== 'ok') {
      throw new AgentError(script.outcome, `Simulated printer failure ${script.outcome}`);
    }
    await ctx.checkpoint({ phase: 'printing' });
    const entry = this.print(job.commandId, total);
    await ctx.checkpoint({ phase: 'printed', receipt: entry.facts.receipt });
    ctx.progress(0.9);
    // The paper still has to come out; the document is already emitted, so no abort from here on.
    await this.ctx.clock.sleep(script.durationMs / 2).catch(() => undefined);
    this.touched();
    return this.result(entry);
  }

  async reconcile(job: Job): Promise<Reconciliation> {
    // A checkpoint that exists but is not what this driver writes: something may have been sent.
    const checkpoint = job.checkpoint === undefined ? undefined : CheckpointSchema.safeParse(job.checkpoint);
    if (checkpoint?.success === false) return { outcome: 'unknown', reason: simMessages.receiptUnreadable() };
    const printed = this.ledger.entriesFor(job.commandId).find((e) => e.action === 'receipt');
    if (printed) return { outcome: 'done', result: this.result(printed) };
    if (checkpoint?.data.phase === 'printed') {
      // The note says printed, the printer's memory has no such document: do not guess.
      return { outcome: 'unknown', reason: simMessages.receiptUnreadable() };
    }
    // The simulated printer's memory is exact: no document for this command means none was emitted.
    return { outcome: 'not-done' };
  }

  protected readonly staffFacts = ['printed'];

  protected facts(): FactsOf<typeof sharedLabels & typeof simFiscalLabels> {
    return { serial: this.serial, printed: this.ledger.count('receipt') };
  }

  /** Refuses what a real printer would refuse; returns the document total in euro. */
  private async validate(fiscal: FiscalJobData, signal: AbortSignal): Promise<number> {
    const doc = fiscal.document;
    if (doc.type === 'payload') {
      const length = base64Length(doc.base64, 'whitespace');
      if (!length || length % 4 !== 0) {
        throw new AgentError('COMMAND_INVALID', 'The fiscal payload is not valid Base64', {
          notes: simMessages.payloadDamaged(),
        });
      }
      return 0;
    }
    if (doc.type === 'data' && doc.isRefund && !doc.rebated?.receiptNumber) {
      throw new AgentError('FISCAL_REJECTED', 'Refund without the number of the original receipt', {
        notes: simMessages.refundWithoutOriginal(),
      });
    }
    const legacy = fiscal.bill.legacyItems;
    const gross = legacy
      ? legacy.reduce((sum, line) => (line.canceled ? sum : sum + line.gross), 0)
      : (await this.ctx.platform.orderItems(fiscal.bill.id, signal)).reduce(
          (sum, item) => (item.CanceledUtc ? sum : sum + (item.Amount.GrossValue ?? item.Amount.Value ?? 0)),
          0,
        );
    return Math.round(gross * 100) / 100;
  }

  private print(commandId: string, total: number): LedgerEntry {
    // Numbering follows the ledger (the emitted documents), like an RT's own counters.
    const emitted = this.ledger.count('receipt');
    const z = Math.floor(emitted / 9999) + 1;
    const doc = (emitted % 9999) + 1;
    const receipt = `${String(z).padStart(4, '0')}-${String(doc).padStart(4, '0')}`;
    const entry: LedgerEntry = {
      commandId,
      action: 'receipt',
      facts: { receipt, serial: this.serial, total },
      at: this.ctx.clock.now(),
    };
    this.ledger.append(entry);
    return entry;
  }

  private result(entry: LedgerEntry): JobResult {
    const total = Number(entry.facts.total ?? 0);
    const receipt = receiptLabel(entry);
    const money = { money: total, currency: 'EUR' };
    return {
      notes: total
        ? simMessages.receiptPrinted({ receipt, serial: this.serial, total: money })
        : simMessages.receiptPrintedNoTotal({ receipt, serial: this.serial }),
      details: { ...entry.facts, total: money },
    };
  }
}
