import { afterEach, describe, expect, it } from 'vitest';
import { isAgentError } from '../../../src/errors.js';
import { english } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { inWords, orderItem, payloadJob, payment, printedOf, type Rig, rig, saleJob } from './helpers.js';

/**
 * The printer's department programming, read at start (directIO 4202/4205: programming.ts cites
 * gutenbergPrinter-epson tax/VatCommands.java and PrinterCommands.java) and compared with the
 * driver's departments (natures.ts DEFAULT_DEPARTMENTS, fiskaltrust scu-it GetVatGroup). The
 * mismatch case is a printer programmed the efsta way: 5 % in department 3, 4 % in department 4.
 */

const EFSTA = {
  1: { rate: 22 },
  2: { rate: 10 },
  3: { rate: 5 },
  4: { rate: 4 },
  10: { nature: 'N1' },
  11: { nature: 'N2' },
  12: { nature: 'N3' },
  13: { nature: 'N4' },
  14: { nature: 'N5' },
  15: { nature: 'N6' },
};

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});
const never = new AbortController().signal;

describe('epson-fpmate: the printer’s department programming', () => {
  it('a printer programmed as the driver expects: no warning, the fact says it matches', async () => {
    r = await rig();
    await r.driver.open(never);
    const status = inWords(r.driver.status());
    expect(status.warnings).toEqual([]);
    expect(status.facts.departmentProgramming).toBe('matches the driver’s departments (10 departments read)');
  });

  it('a printer programmed otherwise: a warning with the fix per department, and a line at the wrong rate ends before anything prints', async () => {
    r = await rig({
      sim: { departments: EFSTA },
      items: [orderItem('i1', { unitGross: 10.5, rate: 5, notes: 'Colazione' })],
      payments: [payment('p1', 'CashPayment', 10.5)],
    });
    await r.driver.open(never);
    const status = inWords(r.driver.status());
    expect(status.facts.departmentProgramming).toBe('2 departments differ from the driver’s departments');
    expect(status.warnings).toEqual([
      'Department 3 is programmed on the printer for VAT 5 %, but the agent prints its VAT 4 % lines there: program department 3 for VAT 4 % on the printer, or change the driver’s departments ("4": the department programmed for VAT 4 %).',
      'Department 4 is programmed on the printer for VAT 4 %, but the agent prints its VAT 5 % lines there: program department 4 for VAT 5 % on the printer, or change the driver’s departments ("5": the department programmed for VAT 5 %).',
    ]);
    const error = await r.driver.execute(saleJob(), recordingExecuteContext()).catch((e: unknown) => e);
    if (!isAgentError(error)) throw new Error('expected an AgentError');
    expect(error.code).toBe('FISCAL_REJECTED');
    expect(english(error.notes)).toContain(
      'would print in department 4, which the printer has programmed for VAT 4 % instead of VAT 5 %; nothing was printed.',
    );
    expect(r.sim.requests.filter((q) => q === 'printerFiscalReceipt')).toHaveLength(0);
    // A payload is the platform's own document: it is sent as it is.
    await r.driver.execute(
      payloadJob(
        '<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><printerFiscalReceipt><beginFiscalReceipt operator="1"/><printRecItem operator="1" description="Minibar" quantity="1" unitPrice="4.50" department="4"/><printRecTotal operator="1" description="Contanti" payment="4.50" paymentType="0" index="0"/><endFiscalReceipt operator="1"/></printerFiscalReceipt></soapenv:Body></soapenv:Envelope>',
      ),
      recordingExecuteContext(),
    );
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
  });

  it('a line in a department that matches still prints on a printer with another mismatch', async () => {
    r = await rig({
      sim: { departments: EFSTA },
      items: [orderItem('i1', { unitGross: 100, rate: 10, notes: 'Camera' })],
      payments: [payment('p1', 'CashPayment', 100)],
    });
    await r.driver.open(never);
    await r.driver.execute(saleJob(), recordingExecuteContext());
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
  });

  it('an older firmware that cannot be read: not checked, said as a fact, nothing refused', async () => {
    r = await rig({
      items: [orderItem('i1', { unitGross: 10.5, rate: 5, notes: 'Colazione' })],
      payments: [payment('p1', 'CashPayment', 10.5)],
    });
    await r.sim.setFault('noProgrammingRead', true);
    await r.driver.open(never);
    const status = inWords(r.driver.status());
    expect(status.warnings).toEqual([]);
    expect(status.facts.departmentProgramming).toBe(
      'cannot be read from this printer (older firmware?): not checked',
    );
    await r.driver.execute(saleJob(), recordingExecuteContext());
    expect(printedOf(r.sim, 'sale')).toHaveLength(1);
  });
});
