import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billCents,
  item,
  type LawBench,
  lawBench,
  pay,
  publish,
  refundOf,
  run,
  SERIAL,
  said,
} from './helpers.js';

/**
 * Issue 24, the lottery code and the customer's codes, each case a bill through the real driver
 * (so through the fiscal core, `drivers/fiscal-it/`) to the Epson printer simulator. Sources:
 *
 * - [c540] L. 232/2016 art. 1 c. 540 (current text, lotteriadegliscontrini.gov.it/portale/
 *   normativa-di-riferimento): adult residents buying outside a business, **exclusively with
 *   electronic payment instruments**, give their lottery code.
 * - [FAQ] lotteriadegliscontrini.gov.it/portale/domande-frequenti: part cash, part cashless → no.
 * - [ONLINE] the portal's FAQ: "Non saranno validi ai fini della lotteria gli scontrini
 *   corrispondenti ad acquisti effettuati online" (as InfoOggi reproduces it); [80217] ADM
 *   determination 5 March 2020 prot. 80217/RU (with the AdE): a receipt takes part "nei limiti di
 *   quanto pagato contestualmente".
 * - Loyalty points the hotel funds are a discount, not a payment (issue 39 item 2, sources in
 *   `loyalty-points.test.ts`): the rest of the bill decides.
 * - [AdE] agenziaentrate.gov.it/portale/chi-può-partecipare: the RT stores **one** of the two
 *   codes the customer gives, the codice fiscale or the lottery code.
 * - [FS] fiskaltrust/middleware scu-it `EpsonRTPrinter/Models/FiscalReceipt.cs` (printRecLotteryID
 *   before the payments, the code from the receipt's own case data, sales only) and
 *   `Utilities/EpsonCommandFactory.cs` (directIO 1060 partita IVA / 1061 codice fiscale, "01" + code).
 * - [CF] fiskaltrust `scu-it/src/fiskaltrust.Middleware.SCU.IT.Abstraction/Validation/
 *   ItalyValidationHelpers.cs`: the check-character algorithms (DM 23/12/1976, DPR 605/1973);
 *   [30] `Models/ErrorInfoFactory.cs` L57: status 30 CHECKSUM ERRATO.
 * - [DM] DM 7 Dec 2016 (GU 303/2016): the code gives the commercial document fiscal value for the
 *   Italian buyer; no text allows a foreign VAT number on it (fiscal-law research §2).
 * - The platform: the owner's `LegalIdentifiers.ItLotteryCode` (MewsSystems open-api-docs
 *   `accounts.md`, customer legal identifiers; the bill's `Owner` data, `bills.md`).
 */

const ROOM = () => item('room', 110, 10, { name: 'Camera 101' });
let bench: LawBench;

beforeAll(async () => {
  bench = await lawBench();
});
afterAll(async () => {
  await bench?.close();
});

/** A €110 room paid as `payments` say. */
function bill(...payments: ReturnType<typeof pay>[]) {
  publish(bench, [ROOM()], payments);
}

const consumer = { legalIdentifiers: { ItLotteryCode: 'AB12CD34' } };

describe('the lottery code (lotteria degli scontrini)', () => {
  it('prints the consumer’s code from the bill’s customer data on a sale paid by card [c540][FS]', async () => {
    bill(pay('p', 'CreditCardPayment', 110));
    const out = await run(bench, consumer);
    expect(out.error).toBeUndefined();
    expect(out.doc?.lottery).toBe('AB12CD34');
    // Before the payments, as fiskaltrust orders it.
    expect(out.xml).toMatch(/<printRecLotteryID operator="1" code="AB12CD34" \/><printRecTotal /);
    expect(out.doc?.totalCents).toBe(billCents(bench.items));
  });

  it('prints it on a stay paid by card with loyalty points: the points are a discount, no payment [c540] (issue 39 item 2)', async () => {
    bill(pay('pts', 'ExternalPayment:LoyaltyPoints', 10), pay('p', 'CreditCardPayment', 100));
    const out = await run(bench, consumer);
    expect(out.doc?.lottery).toBe('AB12CD34');
    expect(out.doc?.totalCents).toBe(10000);
  });

  it.each([
    ['wholly', [pay('p', 'ExternalPayment:Prepayment', 110)]],
    [
      'partly, the rest by card',
      [pay('p', 'ExternalPayment:Prepayment', 60), pay('q', 'CreditCardPayment', 50)],
    ],
  ])(
    'leaves it off a stay an OTA prepaid online %s: online purchases are excluded [ONLINE][80217] (issue 39 item 4)',
    async (_case, payments) => {
      bill(...payments);
      const out = await run(bench, consumer);
      expect(out.error).toBeUndefined();
      expect(out.doc?.lottery).toBeUndefined();
      expect(out.xml).not.toContain('printRecLotteryID');
      expect(out.log.join('\n')).toContain(
        'lottery code left off: an OTA collected part of it online, and online purchases take no part in the lottery',
      );
      // Still an electronic payment on the receipt, and the receipt totals the bill.
      expect(out.doc?.payments[0]).toMatchObject({ paymentType: 2, index: 1 });
      expect(out.doc?.totalCents).toBe(billCents(bench.items));
    },
  );

  it.each([
    ['paid in cash', [pay('p', 'CashPayment', 110)], 'not paid wholly by electronic means'],
    [
      'paid partly in cash [FAQ]',
      [pay('p', 'CashPayment', 10), pay('q', 'CreditCardPayment', 100)],
      'not paid wholly by electronic means',
    ],
    [
      'paid by invoice later (not collected)',
      [pay('p', 'InvoicePayment:Receivable', 110)],
      'not paid wholly',
    ],
  ])('leaves it off a receipt %s, logs why, and prints the receipt [c540]', async (_case, payments, why) => {
    bill(...payments);
    const out = await run(bench, consumer);
    expect(out.error).toBeUndefined();
    expect(out.doc).toBeDefined();
    expect(out.doc?.lottery).toBeUndefined();
    expect(out.xml).not.toContain('printRecLotteryID');
    expect(out.log.join('\n')).toContain(`lottery code left off: the receipt is ${why}`);
    expect(out.doc?.totalCents).toBe(billCents(bench.items));
  });

  it('never prints it beside a codice fiscale: the RT stores one of the two [AdE]', async () => {
    bill(pay('p', 'CreditCardPayment', 110));
    const out = await run(bench, { ...consumer, taxIdentifier: 'RSSMRA80A01H501U' });
    expect(out.doc?.customer).toEqual({ command: '1061', id: 'RSSMRA80A01H501U' });
    expect(out.doc?.lottery).toBeUndefined();
    expect(out.log.join('\n')).toContain(
      'lottery code left off: the receipt carries the customer’s codice fiscale',
    );
  });

  it('never prints it on a bill issued to a company: a business purchase is excluded [c540]', async () => {
    bill(pay('p', 'CreditCardPayment', 110));
    const out = await run(bench, { accountType: 'Company', legalIdentifiers: { ItLotteryCode: 'AB12CD34' } });
    expect(out.doc?.lottery).toBeUndefined();
    expect(out.doc).toBeDefined();
  });

  it('never takes an 8-character TaxIdentifier for a lottery code, nor a machine-wide setting [c540]', async () => {
    bill(pay('p', 'CreditCardPayment', 110));
    const guessed = await run(bench, {
      taxIdentifier: 'AB12CD34',
      machineSettings: { LotteryCode: 'ZZ99ZZ99' },
    });
    expect(guessed.doc).toBeDefined();
    expect(guessed.doc?.lottery).toBeUndefined();
    expect(guessed.doc?.customer).toBeUndefined();
    // The identifier is no Italian code either: printed without it, and Notes say so.
    expect(said(guessed.result?.notes)).toContain('not an Italian codice fiscale or partita IVA');
  });

  it('never prints it on a refund [FS: sales only]', async () => {
    publish(bench, [item('room', -110, 10, { name: 'Camera 101' })], [pay('p', 'CreditCardPayment', -110)]);
    const sale = bench.sim.printed.findLast((d) => d.kind === 'sale');
    if (!sale) throw new Error('no sale printed yet');
    const out = await run(bench, {
      ...consumer,
      refund: refundOf(sale),
    });
    expect(out.doc?.kind).toBe('refund');
    expect(out.doc?.lottery).toBeUndefined();
    expect(out.log.join('\n')).toContain('lottery code left off: a refund carries none');
  });
});

describe('the customer’s codice fiscale or partita IVA', () => {
  it('prints a valid partita IVA with directIO 1060 and a codice fiscale with 1061, after the payments [FS][DM]', async () => {
    bill(pay('p', 'CashPayment', 110));
    const piva = await run(bench, { taxIdentifier: 'IT01606720215' });
    expect(piva.doc?.customer).toEqual({ command: '1060', id: '01606720215' });
    expect(piva.xml).toMatch(
      /<printRecTotal [^>]*\/><directIO command="1060" data="0101606720215" \/><endFiscalReceipt/,
    );
    const cf = await run(bench, { taxIdentifier: 'rssmra80a01h501u' });
    expect(cf.doc?.customer).toEqual({ command: '1061', id: 'RSSMRA80A01H501U' });
  });

  it.each(['DE123456789', 'ESB12345678', 'FR12345678901'])(
    'prints the receipt without a foreign VAT number %s, and Notes say an invoice is what a foreign business needs [DM]',
    async (foreign) => {
      bill(pay('p', 'CashPayment', 110));
      const out = await run(bench, { taxIdentifier: foreign });
      expect(out.error).toBeUndefined();
      expect(out.doc?.customer).toBeUndefined();
      expect(out.xml).not.toContain('directIO');
      const notes = said(out.result?.notes);
      expect(notes).toMatch(new RegExp(`^Receipt \\d{4}-\\d{4} on RT ${SERIAL}`));
      expect(notes).toContain(
        'not an Italian codice fiscale or partita IVA, so the receipt was printed without it',
      );
      expect(notes).toContain('needs an invoice');
    },
  );

  it.each(['RSSMRA80A01H501V', '01606720216', 'IT01606720216'])(
    'refuses an Italian-shaped code with a wrong check character (%s) before anything prints [CF][30]',
    async (bad) => {
      bill(pay('p', 'CashPayment', 110));
      const printed = bench.sim.printed.length;
      const out = await run(bench, { taxIdentifier: bad });
      expect(out.error?.code).toBe('COMMAND_INVALID');
      expect(said(out.error?.notes)).toContain('its check character does not match');
      expect(out.xml).toBeUndefined();
      expect(bench.sim.printed).toHaveLength(printed);
    },
  );

  it('with invalidTaxId: print-without, prints such a receipt without the code and says so in Notes', async () => {
    const lenient = await lawBench({ invalidTaxId: 'print-without' });
    try {
      publish(lenient, [ROOM()], [pay('p', 'CashPayment', 110)]);
      const out = await run(lenient, { taxIdentifier: 'RSSMRA80A01H501V' });
      expect(out.doc?.customer).toBeUndefined();
      expect(said(out.result?.notes)).toContain('the receipt was printed without it');
    } finally {
      await lenient.close();
    }
  });

  it('never reads the customer’s code for a void: an invalid one does not block it', async () => {
    bill(pay('p', 'CashPayment', 110));
    const sale = await run(bench, {});
    if (!sale.doc) throw new Error('the sale did not print');
    publish(bench, [item('room', -110, 10)], [pay('p', 'CashPayment', -110)]);
    const out = await run(bench, {
      taxIdentifier: 'RSSMRA80A01H501V',
      correctionType: 'Cancellation',
      refund: refundOf(sale.doc),
    });
    expect(out.error).toBeUndefined();
    expect(out.doc).toMatchObject({ kind: 'void', totalCents: 11000 });
    expect(out.xml).not.toContain('directIO');
  });
});
