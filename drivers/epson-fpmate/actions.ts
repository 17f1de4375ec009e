import { z } from 'zod';
import { defineAction } from '../../src/drivers-api/actions.js';
import type { DeviceAction, JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { english } from '../../src/messages/render.js';
import { reportActions } from '../fiscal-it/rt/actions.js';
import type { ClosureRecord } from '../fiscal-it/rt/fiscal-state.js';
import { fiscalNotes, epsonActionWords as w } from './messages.js';
import { epsonPrinterWords as pw } from './messages-printer.js';
import type { ReprintParams } from './reprint.js';
import type { VoidParams } from './void-receipt.js';

/** What the actions need from the driver; each runs under the printer's mutex. */
export interface ActionHost {
  serial(): string | undefined;
  xReport(signal: AbortSignal): Promise<JobResult>;
  zReport(signal: AbortSignal): Promise<ClosureRecord>;
  voidReceipt(params: VoidParams, signal: AbortSignal): Promise<JobResult>;
  reprint(params: ReprintParams, signal: AbortSignal): Promise<JobResult>;
}

const RECEIPT = /^\s*\d{1,4}-\d{1,4}\s*$/;
const DATE = /^\s*(\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}\/\d{4})\s*$/;

/** A receipt named `ZZZZ-NNNN`, and the day it was printed when the agent may not know it. */
const receiptParams = z
  .object({
    receipt: z.string().regex(RECEIPT, 'a receipt number like 0012-0034'),
    date: z
      .string()
      .regex(DATE, 'a date like 2026-11-21')
      .optional()
      .or(z.literal('').transform(() => undefined)),
  })
  .loose();

/** The closure's outcome as the action's result: done or skipped resolve, the rest reject. */
export function closureResult(record: ClosureRecord, serial: string | undefined): JobResult {
  const details: Record<string, unknown> = { report: 'z', status: record.status, reason: record.reason };
  if (record.z !== undefined) details.zNumber = record.z;
  if (record.status === 'done') {
    return { notes: fiscalNotes.zReportPrinted(serial, record.z, !record.recovered), details };
  }
  if (record.status === 'skipped') return { notes: fiscalNotes.zReportSkipped(), details };
  if (record.status === 'unknown') {
    throw new AgentError('STATE_UNKNOWN', `Z report: ${english(record.detail)}`, {
      notes: fiscalNotes.reportUnknown('Z report'),
      details,
    });
  }
  throw new AgentError('DEVICE_ERROR', `Z report failed: ${english(record.detail)}`, {
    notes: fiscalNotes.reportFailed('Z report', record.detail),
    details,
  });
}

/** The Epson printer's staff actions: X report, Z report, void a receipt, a copy of a receipt. */
export function epsonActions(host: ActionHost): DeviceAction[] {
  return [
    ...reportActions(w, {
      xReport: (signal) => host.xReport(signal),
      zReport: async (signal) => closureResult(await host.zReport(signal), host.serial()),
    }),
    defineAction({
      name: 'void',
      label: w.voidLabel(),
      description: w.voidDescription(),
      fields: [
        { name: 'receipt', label: w.receiptField(), required: true, placeholder: '0012-0034' },
        { name: 'date', label: w.dateField(), required: false, kind: 'date' },
      ],
      confirm: w.voidConfirm(),
      params: receiptParams,
      run: (params, signal) =>
        host.voidReceipt({ receipt: params.receipt, date: params.date?.trim() }, signal),
    }),
    defineAction({
      name: 'reprint',
      label: pw.reprintLabel(),
      description: pw.reprintDescription(),
      fields: [
        { name: 'receipt', label: w.receiptField(), required: true, placeholder: '0012-0034' },
        { name: 'date', label: w.dateField(), required: false, kind: 'date' },
      ],
      confirm: pw.reprintConfirm(),
      params: receiptParams,
      run: (params, signal) => host.reprint({ receipt: params.receipt, date: params.date?.trim() }, signal),
    }),
  ];
}
