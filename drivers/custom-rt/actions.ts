import { z } from 'zod';
import { defineAction } from '../../src/drivers-api/actions.js';
import type { DeviceAction, JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { ddMMyyyyOf, reportActions } from '../fiscal-it/rt/actions.js';
import { customActionWords as w } from './messages.js';

/**
 * The Custom printer's staff actions, with the Epson family's names and fields so that the status
 * page and the CLI (`report x|z`, `void`, `reprint`) drive both alike: X report, Z report, void a
 * receipt (`beginRtDocAnnulment`, XML protocol manual rev 2.00 p.36, checked first with
 * `checkOnly="1"`), and a copy of the last receipt (`printDuplicateReceipt`, p.83: the printer
 * copies its last receipt only, so another number is refused).
 */
export interface ActionHost {
  xReport(signal: AbortSignal): Promise<JobResult>;
  zReport(signal: AbortSignal): Promise<JobResult>;
  voidReceipt(params: VoidParams, signal: AbortSignal): Promise<JobResult>;
  reprint(params: { receipt?: string | undefined }, signal: AbortSignal): Promise<JobResult>;
}

export interface VoidParams {
  z: number;
  doc: number;
  /** ddMMyyyy */
  date: string;
}

const RECEIPT = /^\s*(\d{1,4})-(\d{1,4})\s*$/;
const DATE = /^\s*(?:(\d{4})-(\d{2})-(\d{2})|(\d{1,2})\/(\d{1,2})\/(\d{4}))\s*$/;

const voidParams = z
  .object({
    receipt: z.string().regex(RECEIPT, 'a receipt number like 0143-0012'),
    date: z.string().regex(DATE, 'a date like 2026-03-13'),
  })
  .loose();

export function customActions(host: ActionHost): DeviceAction[] {
  return [
    ...reportActions(
      {
        xLabel: w.xReport,
        xDescription: w.xReportHelp,
        zLabel: w.zReport,
        zDescription: w.zReportHelp,
        zConfirm: w.zConfirm,
      },
      host,
    ),
    defineAction({
      name: 'void',
      label: w.void(),
      description: w.voidHelp(),
      fields: [
        { name: 'receipt', label: w.receiptNumber(), required: true, placeholder: '0143-0012' },
        { name: 'date', label: w.receiptDate(), required: true, kind: 'date' },
      ],
      confirm: w.voidConfirm(),
      params: voidParams,
      run: (params, signal) => {
        const m = RECEIPT.exec(params.receipt);
        const date = ddMMyyyyOf(params.date);
        if (!m || !date)
          throw new AgentError('COMMAND_INVALID', 'bad receipt number or date', {
            notes: w.badReceiptNumber(),
          });
        return host.voidReceipt({ z: Number(m[1]), doc: Number(m[2]), date }, signal);
      },
    }),
    defineAction({
      name: 'reprint',
      label: w.copy(),
      description: w.copyHelp(),
      fields: [{ name: 'receipt', label: w.receiptNumber(), required: false, placeholder: '0143-0012' }],
      params: z.object({ receipt: z.string().optional() }).loose(),
      run: (params, signal) => host.reprint({ receipt: params.receipt }, signal),
    }),
  ];
}
