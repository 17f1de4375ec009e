import { z } from 'zod';
import { defineAction } from '../../src/drivers-api/actions.js';
import type { DeviceAction, JobResult } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import { parseReceiptLabel } from '../fiscal-it/reference.js';
import { ddMMyyyyOf, reportActions } from '../fiscal-it/rt/actions.js';
import { rchActionWords as w } from './messages.js';
import type { VoidParams } from './work.js';

/**
 * The RCH printer's staff actions, with the other RT families' names and fields so that the status
 * page and the CLI (`report x|z`, `void`) drive them alike: the X and Z reports (the kit's), and
 * voiding a receipt by its number and date (`=k`, checked first with `/*1`: rch-driver-js-core
 * `returnReceipt`). No copy of a receipt: the sources show a reprint only by date and number
 * range under the Z key (optyker-web `Reprint-Receipt`, `=C452/$1`), which no test of ours covers.
 */
export interface ActionHost {
  xReport(signal: AbortSignal): Promise<JobResult>;
  zReport(signal: AbortSignal): Promise<JobResult>;
  voidReceipt(params: VoidParams, signal: AbortSignal): Promise<JobResult>;
}

export function rchActions(host: ActionHost): DeviceAction[] {
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
      params: z.object({ receipt: z.string().min(1), date: z.string().min(1) }).loose(),
      run: (params, signal) => {
        const receipt = parseReceiptLabel(params.receipt);
        const date = ddMMyyyyOf(params.date);
        if (!receipt || !date) {
          throw new AgentError('COMMAND_INVALID', 'bad receipt number or date', { notes: w.badReceipt() });
        }
        return host.voidReceipt({ ...receipt, date }, signal);
      },
    }),
  ];
}
