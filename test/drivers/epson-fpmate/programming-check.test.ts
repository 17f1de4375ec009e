import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epsonFpmateFactory } from '../../../drivers/epson-fpmate/index.js';
import { PrinterLink } from '../../../drivers/epson-fpmate/link.js';
import { groupMeaning, type PlannedLine } from '../../../drivers/epson-fpmate/programming.js';
import { ProgrammingCheck, type ProgrammingReport } from '../../../drivers/epson-fpmate/programming-check.js';
import {
  type DepartmentClass,
  type FpmateSimulator,
  startFpmateSimulator,
} from '../../../drivers/epson-fpmate/simulator/index.js';
import { departmentTable } from '../../../drivers/fiscal-it/rules.js';
import { isAgentError } from '../../../src/errors.js';
import { createMemoryLogger } from '../../../src/log.js';
import { english } from '../../../src/messages/render.js';
import { createHttpClient } from '../../../src/transport/http.js';
import { javaPosPrinter } from '../../fiscal-law/helpers.js';
import { QUICK_DRIVER } from './helpers.js';

/**
 * The programming check informs before it blocks (issue 39 item 1), with the real PrinterLink
 * against the printer simulator. Sources of the VAT groups (programming.ts `groupMeaning`):
 * [JP] linokoetting/iconic.mytrade.gutenbergPrinter-epson `SharedPrinterFields.java:65-66`
 * (`VAT_N4_Index = 0`, `VAT_N4_Dept = "20"`) and `tax/VatCommands.java` `setVATtable` (the exempt
 * department and its VAT group "20"; rates in groups 1–9, `MaxVatRates = 9`); [RCH]
 * linokoetting/iconic.mytrade.gutenbergPrinter-rch `tax/VatCommands.java` `SetVatAtecoValue`
 * ("rimappo secondo la tabella Epson": 10 → N1, 11 → N2, 12 → N3, 13 → N5, 14 → N6, 0 → N4);
 * [EF] docs.efsta.net/efr/IT/fiscal ("Epson FP Index": EE 10, NS 11, NI 12, RM 13, AL 14).
 * [CLOSED] JavaPOS `setVATtable` programs only with the fiscal day closed (`isDailyOpen()` → return).
 */

/** The map over the defaults for a JavaPOS-programmed printer: each nature in the department of its group. */
const JAVAPOS_MAP = { N4: 20, N5: 13, N6: 14 };

/** A printer programmed as the JavaPOS driver programs one [JP][RCH], and department 15 reporting group 15. */
function javaPosPrinterWith15(): Record<number, DepartmentClass> {
  return { ...javaPosPrinter(), 15: { nature: 'N6', group: 15 } };
}

let sim: FpmateSimulator;
/** The printer's programming: a test reprograms it as a technician would. */
let printer: Record<number, DepartmentClass>;
let link: PrinterLink;
const http = createHttpClient();

beforeAll(async () => {
  printer = javaPosPrinterWith15();
  sim = await startFpmateSimulator({ host: '127.0.0.1', port: 0, departments: printer });
  const options = epsonFpmateFactory.configSchema.parse({ url: sim.url, ...QUICK_DRIVER });
  link = new PrinterLink(sim.url, options, http, createMemoryLogger());
});
afterAll(async () => {
  await sim?.close();
  await http.close();
});

/** A check over `map` (over the default departments), with every report it made. */
function checkOver(map: Record<string, number>) {
  const reports: ProgrammingReport[] = [];
  const check = new ProgrammingCheck(
    () => departmentTable({ departments: map }),
    (r) => reports.push(r),
  );
  return { check, reports, warnings: () => (reports.at(-1)?.warnings ?? []).map(english) };
}

const line = (description: string, department: number, cls: { rate?: number; nature?: string }) =>
  ({ description, department, ...cls }) satisfies PlannedLine;
const reads = () => sim.directIo.filter((c) => c === '4202').length;

async function refusal(run: Promise<void>) {
  const error = await run.catch((e: unknown) => e);
  if (!isAgentError(error)) throw new Error('expected an AgentError');
  return error;
}

describe('what a VAT group means, by the sources', () => {
  it('reads 01–09 as rate groups, 10–14 and 20 as natures [JP][RCH][EF], and explains nothing else', () => {
    expect(groupMeaning(1)).toBe('rate');
    expect(groupMeaning(9)).toBe('rate');
    expect([10, 11, 12, 13, 14, 20].map(groupMeaning)).toEqual(
      ['N1', 'N2', 'N3', 'N5', 'N6', 'N4'].map((nature) => ({ nature })),
    );
    for (const group of [0, 15, 19, 21, 97]) expect(groupMeaning(group)).toBeUndefined();
  });
});

describe('the programming check informs before it blocks', () => {
  it('passes a printer programmed as the JavaPOS driver programs it, and an exempt line prints there [JP]', async () => {
    const { check, reports } = checkOver(JAVAPOS_MAP);
    await check.read(link);
    expect(reports.at(-1)?.findings).toEqual([]);
    await check.check([line('Museo', 20, { nature: 'N4' }), line('Camera', 2, { rate: 10 })], link);
  });

  it('a group no source explains: a warning naming what to check on the printer, never a refusal', async () => {
    const { check, reports, warnings } = checkOver({ ...JAVAPOS_MAP, N6: 15 });
    await check.read(link);
    expect(reports.at(-1)?.findings.map((f) => f.department)).toEqual([15]);
    expect(warnings()).toEqual([
      'Department 15 reports VAT group 15 on the printer, which the agent cannot interpret, so it cannot check that the department carries nature N6; receipts still print. Check on the printer that department 15 is programmed for nature N6 (the agent prints its nature N6 lines there: "N6" in the driver’s departments).',
    ]);
    const before = reads();
    await check.check([line('Altro', 15, { nature: 'N6' })], link);
    expect(reads()).toBe(before);
  });

  it('one nature for another: a warning with the fix, the line still prints (no VAT either way)', async () => {
    const { check, warnings } = checkOver({ ...JAVAPOS_MAP, N5: 14, N6: 13 });
    await check.read(link);
    expect(warnings()[0]).toBe(
      'Department 13 is programmed on the printer for nature N5, but the agent prints its nature N6 lines there: program department 13 for nature N6 on the printer, or change the driver’s departments ("N6": the department programmed for nature N6).',
    );
    await check.check([line('Altro', 13, { nature: 'N6' })], link);
  });

  it('refuses a line at another rate, a nature line in a rate department and a rate line in a nature department — each after reading the programming again', async () => {
    const { check } = checkOver({ ...JAVAPOS_MAP, '4': 4, '5': 3, N1: 2 });
    await check.read(link);
    for (const planned of [
      line('Colazione', 4, { rate: 4 }),
      line('Tassa di soggiorno', 2, { nature: 'N1' }),
      line('Camera', 11, { rate: 10 }),
    ]) {
      const before = reads();
      const error = await refusal(check.check([planned], link));
      expect(error.code).toBe('FISCAL_REJECTED');
      expect(error.details).toMatchObject({ department: planned.department, nothingSent: true });
      expect(reads()).toBeGreaterThan(before);
    }
  });

  it('a printer fixed since the last read is not refused: the read before refusing sees the fix [CLOSED]', async () => {
    const { check, reports } = checkOver({ ...JAVAPOS_MAP, '4': 4, '5': 3 });
    await check.read(link);
    expect(reports.at(-1)?.findings.map((f) => f.department)).toEqual([3, 4]);
    // The technician programs department 3 for 4 % and department 4 for 5 %, day closed.
    printer[3] = { rate: 5 };
    printer[4] = { rate: 4 };
    try {
      await check.check([line('Colazione', 4, { rate: 4 })], link);
      expect(reports.at(-1)?.findings).toEqual([]);
      expect(check.needsRead()).toBe(false);
    } finally {
      printer[3] = { rate: 4 };
      printer[4] = { rate: 5 };
    }
  });

  it('a printer that does not answer the read before refusing: the document waits (retryable, nothing sent), the last read stands', async () => {
    const { check, reports } = checkOver({ ...JAVAPOS_MAP, '4': 4, '5': 3 });
    await check.read(link);
    await sim.setFault('refused', true);
    try {
      const error = await refusal(check.check([line('Colazione', 4, { rate: 4 })], link));
      expect(error.code).toBe('DEVICE_UNAVAILABLE');
      expect(error.details.nothingSent).toBe(true);
      expect(english(error.notes)).toContain('did not answer when the agent read its department programming');
      expect(check.needsRead()).toBe(true);
      expect(check.programming?.kind).toBe('read');
      expect(reports).toHaveLength(1);
    } finally {
      await sim.setFault('refused', false);
    }
  });
});
