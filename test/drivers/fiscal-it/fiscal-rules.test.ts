import { describe, expect, it } from 'vitest';
import { EpsonFpmateOptionsSchema, paymentsOf, rulesOf } from '../../../drivers/epson-fpmate/config.js';
import { describeOptions } from '../../../drivers/epson-fpmate/describe.js';
import { EPSON_PAYMENT_CODES, epsonCodeOf } from '../../../drivers/epson-fpmate/payment-codes.js';
import {
  checkCodiceFiscale,
  checkLotteryCode,
  checkPartitaIva,
} from '../../../drivers/epson-fpmate/simulator/codes.js';
import {
  customerCode,
  isValidCodiceFiscale,
  isValidPartitaIva,
} from '../../../drivers/fiscal-it/customer-codes.js';
import { classifyLine, type LineRules, type SourceLine } from '../../../drivers/fiscal-it/lines.js';
import { natureOfExemption, rateOfTaxCode } from '../../../drivers/fiscal-it/natures.js';
import { DEFAULT_PAYMENT_RULES, paymentKeys, ruleFor } from '../../../drivers/fiscal-it/payments.js';
import { departmentTable } from '../../../drivers/fiscal-it/rules.js';
import { PaymentSchema } from '../../../src/connector/wire.js';
import type { Message } from '../../../src/messages/message.js';
import { english, messageRenderer } from '../../../src/messages/render.js';
import { thrownBy } from '../../helpers/rejection.js';

const options = (extra: Record<string, unknown> = {}) =>
  EpsonFpmateOptionsSchema.parse({ url: 'http://192.0.2.10', ...extra });

function lineOptions(extra: Record<string, unknown> = {}): LineRules {
  return rulesOf(options(extra));
}

const line = (extra: Partial<SourceLine>): SourceLine => ({
  name: 'Riga',
  quantity: 1,
  grossUnits: 100_000,
  taxCodes: [],
  currency: 'EUR',
  ...extra,
});

describe('departments by VAT rate and nature', () => {
  it('default to the programming public drivers assume (fiskaltrust EpsonCommandFactory GetVatGroup)', () => {
    expect(departmentTable(options())).toEqual({
      '22': 1,
      '10': 2,
      '4': 3,
      '5': 4,
      N1: 10,
      N2: 11,
      N3: 12,
      N4: 13,
      N5: 14,
      N6: 15,
    });
    const lines = describeOptions(options()).map(english);
    expect(lines[0]).toMatch(
      /^Epson RT printer, Fiscal ePOS-Print XML \(fpmate\) at http.*\/cgi-bin\/fpmate\.cgi$/,
    );
    expect(lines.slice(1, 11)).toEqual([
      'department 1: VAT 22 %',
      'department 2: VAT 10 %',
      'department 3: VAT 4 %',
      'department 4: VAT 5 %',
      'department 10: nature N1 (EE, excluded (art. 15))',
      'department 11: nature N2 (NS, not subject to VAT)',
      'department 12: nature N3 (NI, not taxable)',
      'department 13: nature N4 (ES, exempt)',
      'department 14: nature N5 (RM, margin scheme)',
      'department 15: nature N6 (AL, other operations without VAT)',
    ]);
    // check-config says it in the configured language.
    expect(messageRenderer('it').render(describeOptions(options())[1] as Message)).toBe(
      'reparto 1: IVA 22 %',
    );
    expect(describeOptions(options()).slice(-2).map(messageRenderer('it').render)).toEqual([
      `pagamenti: ${Object.keys(DEFAULT_PAYMENT_RULES).length} tipi di pagamento della piattaforma già previsti (README), qualsiasi altro rifiutato`,
      'chiusura giornaliera: printXZReport alle 03:30 ora locale, ritentata ogni 15 min per 6 h; giornata aperta da troppo tempo: close-and-print',
    ]);
  });

  it('takes the nature the platform names (TaxExemptionReason), a sub-nature falling back to its parent', () => {
    expect(natureOfExemption('IT_N2_2')).toBe('N2.2');
    expect(natureOfExemption('IT_N4')).toBe('N4');
    expect(natureOfExemption('PL_ZW')).toBeUndefined();
    const o = lineOptions();
    expect(classifyLine(line({ exemption: 'IT_N4', netCents: 1000, taxCents: 0 }), o)).toEqual({
      department: 13,
      nature: 'N4',
    });
    expect(classifyLine(line({ exemption: 'IT_N2_2' }), o)).toEqual({ department: 11, nature: 'N2.2' });
    expect(
      classifyLine(line({ exemption: 'IT_N2_2' }), lineOptions({ departments: { 'N2.2': 16 } })),
    ).toEqual({
      department: 16,
      nature: 'N2.2',
    });
  });

  it('puts the city tax in N1 by its type, and any type or accounting category where itemNatures says', () => {
    const o = lineOptions({ itemNatures: { 'tips-category': 'N2' } });
    expect(
      classifyLine(line({ itemType: 'CityTax', taxCodes: ['IT-0'], netCents: 350, taxCents: 0 }), o),
    ).toEqual({
      department: 10,
      nature: 'N1',
    });
    expect(classifyLine(line({ accountingCategoryId: 'tips-category' }), o)).toEqual({
      department: 11,
      nature: 'N2',
    });
    expect(
      classifyLine(line({ taxCodes: ['IT-EX'] }), lineOptions({ taxCodeNatures: { 'IT-EX': 'N4' } })),
    ).toEqual({
      department: 13,
      nature: 'N4',
    });
  });

  it('refuses a line marked without VAT that carries VAT, naming it', () => {
    const error = thrownBy(() =>
      classifyLine(line({ name: 'Cena', itemType: 'CityTax', netCents: 1000, taxCents: 220 }), lineOptions()),
    );
    expect(error.code).toBe('FISCAL_REJECTED');
    expect(english(error.notes)).toContain('"Cena" is marked N1 (no VAT) but carries VAT');
  });

  it('refuses a line without VAT and without a nature, naming the item — unless a default department is set', () => {
    const zero = line({ name: 'Servizio navetta', netCents: 1000, taxCents: 0 });
    const error = thrownBy(() => classifyLine(zero, lineOptions()));
    expect(english(error.notes)).toBe(
      'The bill line "Servizio navetta" has no VAT rate and no VAT nature (exempt, not subject, city tax …) the agent can tell; nothing was printed. Ask IT to set its tax code or exemption on the platform, or map it in the fiscal printer’s itemNatures.',
    );
    expect(classifyLine(zero, lineOptions({ defaultDepartment: 9 }))).toEqual({ department: 9 });
    // An older configuration's "0" department keeps working for such lines.
    expect(classifyLine(zero, lineOptions({ departments: { '0': 4 } }))).toEqual({ department: 4, rate: 0 });
  });

  it('reads a rate from a tax code ending in NN% (the platform’s codes read "AT-2020-21%"), else from the amounts', () => {
    expect(rateOfTaxCode('AT-2020-21%')).toBe(21);
    expect(rateOfTaxCode('IT-2018-5,5%')).toBe(5.5);
    expect(rateOfTaxCode('IT-2018-1-S')).toBeUndefined();
    expect(classifyLine(line({ taxCodes: ['IT-2022-5%'] }), lineOptions())).toEqual({
      department: 4,
      rate: 5,
    });
    expect(classifyLine(line({ taxCodes: ['X'], netCents: 10000, taxCents: 1000 }), lineOptions())).toEqual({
      department: 2,
      rate: 10,
    });
  });
});

describe('payments', () => {
  const wire = (Type: string, data?: Record<string, unknown>) =>
    PaymentSchema.parse({
      Id: 'p',
      Type,
      State: 'Charged',
      Amount: { Currency: 'EUR', GrossValue: -1 },
      Data: data ?? null,
    });

  it('are named by their type and, for external, alternative and invoice payments, their kind', () => {
    expect(paymentKeys(wire('CashPayment'))).toEqual(['CashPayment']);
    expect(
      paymentKeys(wire('ExternalPayment', { Discriminator: 'External', External: { Type: 'Voucher' } })),
    ).toEqual(['ExternalPayment:Voucher', 'ExternalPayment']);
    expect(
      paymentKeys(wire('InvoicePayment', { Discriminator: 'Invoice', Invoice: { Type: 'Receivable' } })),
    ).toEqual(['InvoicePayment:Receivable', 'InvoicePayment']);
  });

  // The table and its sources: drivers/fiscal-it/README.md, "Payments".
  it('map by default every kind the issue names, each to its payment kind and Epson code', () => {
    const codes = paymentsOf(options()).codes;
    const rule = (key: string) => {
      const found = ruleFor([key, key.split(':')[0] as string], {}, undefined);
      if (!found || 'deduct' in found.rule) return found?.rule;
      return { kind: found.rule.kind, ...epsonCodeOf({ kind: found.rule.kind, key: found.key }, codes) };
    };
    expect(rule('CashPayment')).toMatchObject({ kind: 'cash', paymentType: 0, index: 0 });
    expect(rule('ExternalPayment:Cheque')).toMatchObject({ kind: 'cheque', paymentType: 1, index: 0 });
    expect(rule('CreditCardPayment')).toMatchObject({ kind: 'credit-card', paymentType: 2, index: 1 });
    expect(rule('AlternativePayment:ApplePay')).toMatchObject({
      kind: 'electronic',
      paymentType: 2,
      index: 1,
    });
    expect(rule('ExternalPayment:Voucher')).toMatchObject({
      kind: 'multi-use-voucher',
      paymentType: 6,
      index: 1,
    });
    expect(rule('ExternalPayment:GiftCard')).toMatchObject({ paymentType: 6, index: 1 });
    expect(rule('ExternalPayment:ChequeVacances')).toMatchObject({
      kind: 'ticket',
      paymentType: 3,
      index: 1,
    });
    // Issue 24: an OTA's prepayment is money collected (Booking.com partner help: the host issues
    // the document for the full amount), never "non riscosso servizi" 5/2.
    expect(rule('ExternalPayment:Prepayment')).toMatchObject({
      kind: 'prepaid-online',
      paymentType: 2,
      index: 1,
    });
    // Issue 24: loyalty points are a discount (sconto a pagare 6/0: Microsoft EpsonFP90IIISample
    // maps its loyalty card to 6/00), never "not collected" 5/0.
    expect(rule('ExternalPayment:LoyaltyPoints')).toMatchObject({
      kind: 'payment-discount',
      paymentType: 6,
      index: 0,
    });
    expect(rule('InvoicePayment:Receivable')).toMatchObject({
      kind: 'not-collected-invoice',
      paymentType: 5,
      index: 3,
    });
    expect(rule('ExternalPayment:DepositCash')).toEqual({ deduct: 'deposit', description: 'ACCONTO' });
    expect(rule('GhostPayment')).toBeUndefined();
    expect(Object.keys(DEFAULT_PAYMENT_RULES).length).toBeGreaterThan(30);
    // No money anyone collected is "not collected" by default.
    const notCollected = Object.entries(DEFAULT_PAYMENT_RULES).filter(
      ([, r]) => 'kind' in r && r.kind.startsWith('not-collected'),
    );
    expect(notCollected.map(([key]) => key).sort()).toEqual(['ExternalPayment:Invoice', 'InvoicePayment']);
  });

  it('take the configured rule over the built-in one: a kind, a deduction, or an Epson code as it is', () => {
    const configured = paymentsOf(
      options({
        payments: {
          'ExternalPayment:Voucher': { deduct: 'single-use-voucher', description: 'BUONO MONOUSO' },
          'ExternalPayment:Prepayment': { kind: 'not-collected-services' },
          'ExternalPayment:Twint': { paymentType: 2, index: 4, description: 'TWINT' },
        },
      }),
    );
    expect(ruleFor(['ExternalPayment:Voucher', 'ExternalPayment'], configured.rules, undefined)).toEqual({
      rule: { deduct: 'single-use-voucher', description: 'BUONO MONOUSO' },
      key: 'ExternalPayment:Voucher',
    });
    expect(ruleFor(['ExternalPayment:Prepayment'], configured.rules, undefined)?.rule).toEqual({
      kind: 'not-collected-services',
    });
    const twint = ruleFor(['ExternalPayment:Twint'], configured.rules, undefined);
    expect(twint?.rule).toEqual({ kind: 'electronic', description: 'TWINT' });
    expect(epsonCodeOf({ kind: 'electronic', key: 'ExternalPayment:Twint' }, configured.codes)).toEqual({
      paymentType: 2,
      index: 4,
    });
    expect(EPSON_PAYMENT_CODES['not-collected-services']).toEqual({ paymentType: 5, index: 2 });
    expect(() => options({ payments: { X: { paymentType: 9 } } })).toThrow();
    expect(() => options({ payments: { X: { kind: 'barter' } } })).toThrow();
  });
});

describe('customer codes', () => {
  // fiskaltrust UnitTest/CustomerTaxIdDirectIOTests.cs: PartitaIva 01606720215, CodiceFiscale RSSMRA80A01H501U.
  it.each([
    ['01606720215', true],
    ['01606720216', false],
    ['00000000000', false],
  ])('partita IVA %s: check digit %s, the driver’s and the simulated printer’s alike', (piva, ok) => {
    expect(isValidPartitaIva(piva)).toBe(ok);
    expect(checkPartitaIva(piva)).toBe(ok);
  });

  it.each([
    ['RSSMRA80A01H501U', true],
    ['RSSMRA80A01H501V', false],
    // Omocodia: digits replaced by letters (L = 0, M = 1 …) keep a valid code, with its own check letter.
    ['RSSMRA80A01H50MM', true],
  ])('codice fiscale %s: check letter %s', (cf, ok) => {
    expect(isValidCodiceFiscale(cf)).toBe(ok);
    expect(checkCodiceFiscale(cf)).toBe(ok);
  });

  // Issue 24, customer codes: an Italian-shaped code with a wrong check character is refused
  // (the printer would answer status 30 CHECKSUM ERRATO, fiskaltrust scu-it
  // Models/ErrorInfoFactory.cs) unless invalidTaxId is print-without; anything else — a foreign
  // VAT number — prints without the code and Notes say so. Never a lottery code.
  it('tells the codes apart by form, refuses an Italian-shaped code failing its check, leaves anything else off', () => {
    const rules = (invalidTaxId: 'refuse' | 'print-without' = 'refuse') => ({
      customerTaxId: true,
      invalidTaxId,
    });
    expect(customerCode(' it01606720215 ', rules())).toEqual({
      customer: { kind: 'partita-iva', id: '01606720215' },
    });
    expect(customerCode('rssmra80a01h501u', rules())).toEqual({
      customer: { kind: 'codice-fiscale', id: 'RSSMRA80A01H501U' },
    });
    expect(customerCode('', rules())).toEqual({});
    expect(customerCode('RSSMRA80A01H501U', { customerTaxId: false, invalidTaxId: 'refuse' })).toEqual({});
    for (const foreign of ['DE123456789', 'ESB12345678', 'AB12CD34', '12345']) {
      const decision = customerCode(foreign, rules());
      expect(decision.customer, foreign).toBeUndefined();
      expect(english(decision.notes as Message)).toContain('not an Italian codice fiscale or partita IVA');
    }
    expect(checkLotteryCode('AB12CD34')).toBe(true);
    for (const bad of ['01606720216', 'IT01606720216', 'RSSMRA80A01H501V']) {
      const error = thrownBy(() => customerCode(bad, rules()));
      expect(error.code).toBe('COMMAND_INVALID');
      expect(english(error.notes)).toContain('its check character does not match');
      const without = customerCode(bad, rules('print-without'));
      expect(without.customer).toBeUndefined();
      expect(english(without.notes as Message)).toContain('the receipt was printed without it');
    }
  });
});
