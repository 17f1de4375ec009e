import { afterEach, describe, expect, it } from 'vitest';
import { inWords } from '../drivers/epson-fpmate/helpers.js';
import { billCents, item, javaPosPrinter, type LawBench, lawBench, pay, publish, run } from './helpers.js';

/**
 * Issue 39 item 1: the check of the printer's department programming informs before it blocks.
 * A bill as the platform sends it goes through the real Epson driver to a simulated printer
 * programmed as a public driver programs one. Sources of the VAT groups
 * (`drivers/epson-fpmate/programming.ts` `groupMeaning`):
 *
 * - [JP] linokoetting/iconic.mytrade.gutenbergPrinter-epson `SharedPrinterFields.java:65-66`
 *   (`VAT_N4_Index = 0`, `VAT_N4_Dept = "20"`) and `tax/VatCommands.java` `setVATtable`: the
 *   exempt (N4) department 20 carries VAT group "20", whose 4205 rate reads 0.
 * - [RCH] linokoetting/iconic.mytrade.gutenbergPrinter-rch `tax/VatCommands.java`
 *   `SetVatAtecoValue`, "rimappo secondo la tabella Epson": groups 10 → N1, 11 → N2, 12 → N3,
 *   13 → N5, 14 → N6.
 * - A group no source explains is "cannot check": a warning (the page, `doctor`), never a refusal
 *   (issue 39: "A group code no source explains is cannot check").
 */

let bench: LawBench | undefined;
afterEach(async () => {
  await bench?.close();
  bench = undefined;
});
const never = new AbortController().signal;

/** A stay with the city tax (N1) and an exempt excursion (N4). */
const stay = () => [
  item('room', 200, 10, { name: 'Camera 101' }),
  item('tax', 6, 0, { name: 'Tassa di soggiorno', type: 'CityTax' }),
  item('museum', 12, 0, { name: 'Museo', exemption: 'IT_N4' }),
];

describe('the programming check (issue 39 item 1)', () => {
  it('passes a printer programmed as the JavaPOS driver programs it, and prints the exempt line in its department 20 [JP][RCH]', async () => {
    bench = await lawBench({ departments: { N4: 20, N5: 13, N6: 14 } }, { departments: javaPosPrinter() });
    await bench.driver.open(never);
    const status = inWords(bench.driver.status());
    expect(status.warnings).toEqual([]);
    expect(status.facts.departmentProgramming).toBe('matches the driver’s departments (10 departments read)');
    publish(bench, stay(), [pay('p', 'CreditCardPayment', 218)]);
    const out = await run(bench);
    expect(out.error).toBeUndefined();
    expect(out.doc?.lines.map((l) => [l.department, l.vatClass])).toEqual([
      [2, '10%'],
      [10, 'N1'],
      [20, 'N4'],
    ]);
    expect(out.doc?.totalCents).toBe(billCents(bench.items));
  });

  it('a city-tax department reporting a group no source explains: a warning naming what to check, and the bill with the city tax prints', async () => {
    bench = await lawBench({}, { departments: { ...javaPosPrinter(), 10: { nature: 'N1', group: 37 } } });
    await bench.driver.open(never);
    expect(inWords(bench.driver.status()).warnings).toContain(
      'Department 10 reports VAT group 37 on the printer, which the agent cannot interpret, so it cannot check that the department carries nature N1; receipts still print. Check on the printer that department 10 is programmed for nature N1 (the agent prints its nature N1 lines there: "N1" in the driver’s departments).',
    );
    publish(bench, stay().slice(0, 2), [pay('p', 'CashPayment', 206)]);
    const out = await run(bench);
    expect(out.error).toBeUndefined();
    expect(out.doc?.lines.map((l) => l.department)).toEqual([2, 10]);
  });
});
