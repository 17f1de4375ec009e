import { z } from 'zod';
import { defineAction } from '../../../src/drivers-api/actions.js';
import type { DeviceAction, JobResult } from '../../../src/drivers-api/types.js';
import { AgentError } from '../../../src/errors.js';
import type { Message } from '../../../src/messages/message.js';
import type { ClosureRecord } from './fiscal-state.js';
import { rtActionWords as w } from './messages.js';

/**
 * What every RT family's staff actions share: the X and Z report actions (one name and shape for
 * every family, so the page and `frontdesk-agent report x|z` drive them alike; each family words
 * them and runs them in the kit's turn), and the receipt date a form or a command line gives.
 */
export interface ReportActionWords {
  xLabel(): Message;
  xDescription(): Message;
  zLabel(): Message;
  zDescription(): Message;
  zConfirm(): Message;
}

/** The kit's own words for the report actions (`rtActionWords`). */
export const RT_REPORT_WORDS: ReportActionWords = {
  xLabel: w.xReport,
  xDescription: w.xReportHelp,
  zLabel: w.zReport,
  zDescription: w.zReportHelp,
  zConfirm: w.zConfirm,
};

export function reportActions(
  w: ReportActionWords,
  run: { xReport(signal: AbortSignal): Promise<JobResult>; zReport(signal: AbortSignal): Promise<JobResult> },
): DeviceAction[] {
  return [
    defineAction({
      name: 'x-report',
      label: w.xLabel(),
      description: w.xDescription(),
      fields: [],
      params: z.object({}).loose(),
      run: (_params, signal) => run.xReport(signal),
    }),
    defineAction({
      name: 'z-report',
      label: w.zLabel(),
      description: w.zDescription(),
      fields: [],
      confirm: w.zConfirm(),
      params: z.object({}).loose(),
      run: (_params, signal) => run.zReport(signal),
    }),
  ];
}

/** "2026-11-21" or "21/11/2026" → "21112026" (a reference's date); undefined when it is neither. */
export function ddMMyyyyOf(text: string): string | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (iso) return `${iso[3]}${iso[2]}${iso[1]}`;
  const it = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (it) return `${(it[1] as string).padStart(2, '0')}${(it[2] as string).padStart(2, '0')}${it[3]}`;
  return undefined;
}

/** A receipt named by its number and the day it was printed. */
export interface ReceiptByNumber {
  z: number;
  doc: number;
  /** ddMMyyyy */
  date: string;
}

const RECEIPT = /^\s*(\d{1,4})-(\d{1,4})\s*$/;
const DATE = /^\s*(?:(\d{4})-(\d{2})-(\d{2})|(\d{1,2})\/(\d{1,2})\/(\d{4}))\s*$/;

/**
 * The "void" staff action of a family that voids a receipt by its number and date, both
 * required (the page's form, `frontdesk-agent void`): `zzzz-nnnn` and `2026-03-13` or
 * `13/03/2026`. A family whose printer can find the date itself asks for it otherwise (Epson).
 */
export function voidReceiptAction(
  run: (receipt: ReceiptByNumber, signal: AbortSignal) => Promise<JobResult>,
): DeviceAction {
  return defineAction({
    name: 'void',
    label: w.void(),
    description: w.voidHelp(),
    fields: [
      { name: 'receipt', label: w.receiptNumber(), required: true, placeholder: '0143-0012' },
      { name: 'date', label: w.receiptDate(), required: true, kind: 'date' },
    ],
    confirm: w.voidConfirm(),
    params: z
      .object({
        receipt: z.string().regex(RECEIPT, 'a receipt number like 0143-0012'),
        date: z.string().regex(DATE, 'a date like 2026-03-13'),
      })
      .loose(),
    run: (params, signal) => {
      const m = RECEIPT.exec(params.receipt);
      const date = ddMMyyyyOf(params.date);
      if (!m || !date) {
        throw new AgentError('COMMAND_INVALID', 'bad receipt number or date', {
          notes: w.badReceiptNumber(),
        });
      }
      return run({ z: Number(m[1]), doc: Number(m[2]), date }, signal);
    },
  });
}

/** The staff actions a family without more of its own offers: the X and Z reports and a void by number. */
export function rtActions(host: {
  xReport(signal: AbortSignal): Promise<JobResult>;
  zReport(signal: AbortSignal): Promise<JobResult>;
  voidReceipt(receipt: ReceiptByNumber, signal: AbortSignal): Promise<JobResult>;
}): DeviceAction[] {
  return [
    ...reportActions(RT_REPORT_WORDS, host),
    voidReceiptAction((receipt, signal) => host.voidReceipt(receipt, signal)),
  ];
}

/** A staff Z report's outcome as the action's result: done or skipped resolve, the rest reject. */
export function closureJobResult(outcome: ClosureRecord): JobResult {
  if (outcome.status === 'done' || outcome.status === 'skipped') {
    return {
      notes: outcome.detail,
      details: { report: 'z', status: outcome.status, ...(outcome.z ? { zNumber: outcome.z } : {}) },
    };
  }
  throw new AgentError(
    outcome.status === 'unknown' ? 'STATE_UNKNOWN' : 'DEVICE_ERROR',
    'Z report did not complete',
    {
      notes: outcome.detail,
      retryable: false,
    },
  );
}
