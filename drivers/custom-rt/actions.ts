import { z } from 'zod';
import { defineAction } from '../../src/drivers-api/actions.js';
import type { DeviceAction, JobResult } from '../../src/drivers-api/types.js';
import { type ReceiptByNumber, rtActions } from '../fiscal-it/rt/actions.js';
import { rtActionWords } from '../fiscal-it/rt/messages.js';
import { customActionWords as w } from './messages.js';

/**
 * The Custom printer's staff actions, with the Epson family's names and fields so that the status
 * page and the CLI (`report x|z`, `void`, `reprint`) drive both alike: X report, Z report, void a
 * receipt (`beginRtDocAnnulment`, XML protocol manual rev 2.00 p.36, checked first with
 * `checkOnly="1"`) — the kit's — and a copy of the last receipt (`printDuplicateReceipt`, p.83:
 * the printer copies its last receipt only, so another number is refused).
 */
export interface ActionHost {
  xReport(signal: AbortSignal): Promise<JobResult>;
  zReport(signal: AbortSignal): Promise<JobResult>;
  voidReceipt(params: VoidParams, signal: AbortSignal): Promise<JobResult>;
  reprint(params: { receipt?: string | undefined }, signal: AbortSignal): Promise<JobResult>;
}

export type VoidParams = ReceiptByNumber;

export function customActions(host: ActionHost): DeviceAction[] {
  return [
    ...rtActions(host),
    defineAction({
      name: 'reprint',
      label: w.copy(),
      description: w.copyHelp(),
      fields: [
        { name: 'receipt', label: rtActionWords.receiptNumber(), required: false, placeholder: '0143-0012' },
      ],
      params: z.object({ receipt: z.string().optional() }).loose(),
      run: (params, signal) => host.reprint({ receipt: params.receipt }, signal),
    }),
  ];
}
