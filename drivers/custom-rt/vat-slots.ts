import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import type { DepartmentUse } from '../fiscal-it/model.js';
import type { CustomLink } from './link.js';
import { customVatWords as v } from './messages-vat.js';
import { command, element } from './xml.js';

/**
 * The printer's own VAT slots, read with `getVatRate` and compared with the driver's `vatSlots`
 * (issue 39 items 1 and 3). On a Custom RT the **slot** decides a line's VAT: a line goes with
 * its `idVat` (receipt.ts; `printRecItem` p.89), so a slot programmed at another rate prints the
 * line at that rate, whatever its department.
 *
 * The read (XML protocol manual rev 2.00 p.71; the native twin 7112, directIO manual rev 6.00
 * p.253): `<getVatRate numVat="N">`, answered in `responseBuf` as VATIDX (2, the slot), VALUE
 * (4: two integers, two decimals), EXCODE (1, "exempt code", 1–6 on p.253), PROGFLAG (1) and DESC
 * (25). What the manual explains decides: the VALUE is the slot's rate. What it does not — which
 * nature each exempt code 1–6 stands for — is never read as anything. `vatSlots` maps rates only
 * (config.ts): a nature line goes without `idVat` and takes its department's class, which
 * `getVatRate` does not show, so nature lines are not checked here.
 *
 * A bill is refused (FISCAL_REJECTED, nothing sent) only when a slot it uses carries a rate other
 * than the map's: the page and `doctor` name the slot and the fix. An answer in another layout, or
 * a refusal of the read, leaves the table "cannot be read" on the page: nothing refused.
 */

/** One slot as read: its rate (percent) and exempt code. */
export interface VatSlot {
  rate: number;
  exemptCode: string;
}

export type SlotProgramming =
  | { kind: 'read'; slots: ReadonlyMap<number, VatSlot> }
  | { kind: 'unreadable' }
  /** The printer did not answer: read again later. */
  | { kind: 'unreachable' };

/** A map entry the printer's table contradicts. */
export interface SlotFinding {
  key: string;
  slot: number;
  actual: VatSlot;
}

/** The slot of a `getVatRate` answer (p.71 layout), or undefined when the answer is not one. */
export function parseVatRate(responseBuf: string | undefined, slot: number): VatSlot | undefined {
  const m = /^(\d\d)(\d{4})(\d)[01]/.exec(responseBuf ?? '');
  if (!m || Number(m[1]) !== slot) return undefined;
  return { rate: Number(m[2]) / 100, exemptCode: m[3] as string };
}

/** Reads every slot the map uses. Never throws. */
export async function readVatSlots(
  link: CustomLink,
  table: Readonly<Record<string, number>>,
  signal?: AbortSignal,
): Promise<SlotProgramming> {
  const slots = new Map<number, VatSlot>();
  for (const slot of [...new Set(Object.values(table))].sort((a, b) => a - b)) {
    const answer = await link.exchange(command(element('getVatRate', { numVat: slot })), signal);
    if (!answer) return { kind: 'unreachable' };
    const read = answer.success ? parseVatRate(answer.addInfo.responseBuf, slot) : undefined;
    if (!read) return { kind: 'unreadable' };
    slots.set(slot, read);
  }
  return { kind: 'read', slots };
}

const SAME = 0.005;

/** Whether a slot read as `actual` gives a line at rate `key` the wrong VAT. */
function refuses(key: string, actual: VatSlot): boolean {
  return Math.abs(actual.rate - Number(key)) >= SAME;
}

/** The map's entries the table contradicts. */
export function compareSlots(
  table: Readonly<Record<string, number>>,
  slots: ReadonlyMap<number, VatSlot>,
): SlotFinding[] {
  const out: SlotFinding[] = [];
  for (const [key, slot] of Object.entries(table)) {
    const actual = slots.get(slot);
    if (actual && refuses(key, actual)) out.push({ key, slot, actual });
  }
  return out.sort((a, b) => a.slot - b.slot || a.key.localeCompare(b.key));
}

const rateWords = (rate: string | number) => v.rate({ rate: String(rate) });

/** The page's warning (and `doctor`'s fix) for one finding. */
export function slotWarning(f: SlotFinding): Message {
  return v.slotMismatch({
    slot: f.slot,
    actual: rateWords(f.actual.rate),
    expected: rateWords(f.key),
    key: f.key,
  });
}

/** The page's fact for a read. */
export function slotsFact(read: SlotProgramming, findings: readonly SlotFinding[]): Message | undefined {
  if (read.kind === 'unreachable') return undefined;
  if (read.kind === 'unreadable') return v.slotsUnreadable();
  return findings.length > 0
    ? v.slotsDiffer({ count: findings.length })
    : v.slotsMatch({ count: read.slots.size });
}

/**
 * The refusal of a document one of whose lines would print in a slot at another rate than the
 * map's (see the module comment); undefined when every line may print.
 */
export function slotRefusal(
  table: Readonly<Record<string, number>>,
  lines: readonly DepartmentUse[],
  programming: SlotProgramming | undefined,
): AgentError | undefined {
  if (programming?.kind !== 'read') return undefined;
  for (const line of lines) {
    // A nature line goes without idVat: its department decides (receipt.ts `itemNode`).
    const key = line.nature === undefined && line.rate !== undefined ? String(line.rate) : undefined;
    const slot = key === undefined ? undefined : table[key];
    const actual = slot === undefined ? undefined : programming.slots.get(slot);
    if (key === undefined || slot === undefined || !actual || !refuses(key, actual)) continue;
    return new AgentError(
      'FISCAL_REJECTED',
      `Line "${line.description}" would print in VAT slot ${slot}, programmed at ${actual.rate} %`,
      {
        notes: v.lineAtWrongSlot({
          item: line.description,
          slot,
          actual: rateWords(actual.rate),
          expected: rateWords(key),
        }),
        details: { vatSlot: slot, expected: key, nothingSent: true },
        retryable: false,
      },
    );
  }
  return undefined;
}
