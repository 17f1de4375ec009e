import { z } from 'zod';
import { defineAction } from '../../../src/drivers-api/actions.js';
import type { DeviceAction, JobResult } from '../../../src/drivers-api/types.js';
import type { Message } from '../../../src/messages/message.js';

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
