import { describe, expect, it } from 'vitest';
import {
  compareSlots,
  parseVatRate,
  slotRefusal,
  slotWarning,
} from '../../../drivers/custom-rt/vat-slots.js';
import { english } from '../../../src/messages/render.js';

/**
 * The Custom VAT slot check's reading of `getVatRate` (XML protocol manual rev 2.00 p.71; native
 * 7112, directIO manual rev 6.00 p.253): VATIDX (2), VALUE (4, two integers and two decimals),
 * EXCODE (1), PROGFLAG (1), DESC (25). The slot decides a line's VAT (`printRecItem idVat`, p.89).
 */

const table = { '22': 1, '10': 2, '4': 3, '5': 4 };
const slots = (rates: Record<number, number>) =>
  new Map(Object.entries(rates).map(([slot, rate]) => [Number(slot), { rate, exemptCode: '0' }]));

describe('getVatRate, as p.71 lays it out', () => {
  it('reads the slot’s rate, and nothing from an answer in another layout or for another slot', () => {
    expect(parseVatRate(`02100001${'IVA 10%'.padEnd(25)}`, 2)).toEqual({ rate: 10, exemptCode: '0' });
    expect(parseVatRate(`05000041${'ESENTE'.padEnd(25)}`, 5)).toEqual({ rate: 0, exemptCode: '4' });
    expect(parseVatRate('02100001', 3)).toBeUndefined();
    expect(parseVatRate('02100', 2)).toBeUndefined();
    expect(parseVatRate(undefined, 2)).toBeUndefined();
  });
});

describe('the check of a bill against the slots', () => {
  it('names a slot at another rate than vatSlots says, with the fix', () => {
    const findings = compareSlots(table, slots({ 1: 22, 2: 22, 3: 4, 4: 5 }));
    expect(findings.map((f) => f.slot)).toEqual([2]);
    expect(english(slotWarning(findings[0] as (typeof findings)[number]))).toBe(
      'VAT slot 2 is programmed on the printer at VAT 22 %, but the agent prints its VAT 10 % lines in it: program slot 2 at VAT 10 % on the printer, or change the driver’s vatSlots ("10": the slot programmed for VAT 10 %).',
    );
  });

  it('refuses a line in that slot, nothing sent; passes lines elsewhere, nature lines and an unread table', () => {
    const read = { kind: 'read' as const, slots: slots({ 1: 22, 2: 22 }) };
    const room = { department: 2, rate: 10, description: 'Camera 101' };
    expect(slotRefusal(table, [room], read)?.details).toMatchObject({ vatSlot: 2, nothingSent: true });
    expect(slotRefusal(table, [{ department: 1, rate: 22, description: 'Bar' }], read)).toBeUndefined();
    expect(
      slotRefusal(table, [{ department: 10, nature: 'N1', description: 'Tassa' }], read),
    ).toBeUndefined();
    expect(slotRefusal(table, [room], { kind: 'unreadable' })).toBeUndefined();
  });
});
