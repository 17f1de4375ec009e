import type { LegacyLine } from '../../src/connector/model.js';
import type { WirePayment } from '../../src/connector/wire.js';
import { grossOf } from './lines.js';
import type { AmountOwner } from './messages.js';
import { toCents, toUnits } from './money.js';

/**
 * The platform's payments as Italian fiscal law sees them: each becomes a **payment kind** on the
 * document (what an RT records as the means of payment: cash, cheque, cards, tickets, amounts not
 * collected, payment discounts, multi-use vouchers), or a **deduction** from the total (a deposit
 * already receipted, a single-use voucher whose VAT was charged when it was sold). The kinds are
 * vendor-neutral: an RT family only maps each kind to its own code (Epson `paymentType`/`index`,
 * Custom's payment number). The table and its sources are in README.md ("Payments").
 *
 * A platform payment is named by its `Type` and, for external, alternative and invoice payments,
 * the kind inside its `Data` (MewsSystems/open-api-docs `connector-api/operations/payments.md`):
 * `ExternalPayment:Voucher`, `AlternativePayment:ApplePay`, `InvoicePayment:Receivable`. The
 * configuration may map either the specific key or the bare type; the specific one wins.
 */

export const PAYMENT_KINDS = [
  'cash',
  'cheque',
  'credit-card',
  'debit-card',
  /** Other electronic means the guest paid with: wallets, transfers, direct debits, online payments. */
  'electronic',
  /** Collected electronically by an intermediary (an OTA's prepayment, an e-commerce channel). */
  'prepaid-online',
  /** Meal and holiday tickets (buoni pasto). */
  'ticket',
  /** Not collected (non riscosso): generic, only by explicit configuration. */
  'not-collected',
  'not-collected-goods',
  'not-collected-services',
  /** Not collected, to be invoiced (the hotel issues an invoice for it later). */
  'not-collected-invoice',
  /** A discount settled by a third party at payment (sconto a pagare). */
  'payment-discount',
  /** A multi-use voucher (buono multiuso): VAT is charged now, when it is spent. */
  'multi-use-voucher',
] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

/**
 * Kinds paid by electronic means at the desk: the only ones a lottery code may go with (see
 * lottery.ts). An OTA's online prepayment is not one of them: the guest paid it online, and online
 * purchases take no part in the lottery (lottery.ts); it still prints as an electronic payment.
 */
export const ELECTRONIC_KINDS: ReadonlySet<PaymentKind> = new Set([
  'credit-card',
  'debit-card',
  'electronic',
]);

export type DeductionKind = 'deposit' | 'single-use-voucher';

export type PaymentRule =
  | { kind: PaymentKind; description?: string | undefined }
  | { deduct: DeductionKind; description?: string | undefined };

export function isDeduction(rule: PaymentRule): rule is Extract<PaymentRule, { deduct: string }> {
  return 'deduct' in rule;
}

const CASH = { kind: 'cash', description: 'CONTANTI' } as const;
const CARD = { kind: 'credit-card', description: 'CARTA DI PAGAMENTO' } as const;
const ELECTRONIC = { kind: 'electronic', description: 'PAGAMENTO ELETTRONICO' } as const;
const DEPOSIT = { deduct: 'deposit', description: 'ACCONTO' } as const;
const LOYALTY = { kind: 'payment-discount', description: 'SCONTO A PAGARE' } as const;

/**
 * The default map (README.md, "Payments", gives each row its source). Cash; cheque; cards,
 * wallets and transfers electronic; meal and holiday tickets; vouchers and gift cards multi-use
 * vouchers; an OTA's prepayment collected online — money received, never "not collected";
 * loyalty points a payment discount (sconto a pagare), never "not collected"; invoice payments
 * not collected, to be invoiced; deposits already receipted deducted. Any other type is refused
 * until it is mapped.
 */
export const DEFAULT_PAYMENT_RULES: Readonly<Record<string, PaymentRule>> = Object.freeze({
  CashPayment: CASH,
  'ExternalPayment:Cash': CASH,
  CreditCardPayment: CARD,
  AlternativePayment: ELECTRONIC,
  'ExternalPayment:CreditCard': CARD,
  'ExternalPayment:MasterCard': CARD,
  'ExternalPayment:Visa': CARD,
  'ExternalPayment:Amex': CARD,
  'ExternalPayment:Discover': CARD,
  'ExternalPayment:DinersClub': CARD,
  'ExternalPayment:Jcb': CARD,
  'ExternalPayment:UnionPay': CARD,
  'ExternalPayment:Bancontact': { kind: 'debit-card', description: 'BANCOMAT' },
  'ExternalPayment:IDeal': ELECTRONIC,
  'ExternalPayment:PayPal': ELECTRONIC,
  'ExternalPayment:Twint': ELECTRONIC,
  'ExternalPayment:OnlinePayment': ELECTRONIC,
  'ExternalPayment:CardCheck': CARD,
  'ExternalPayment:PaymentHubRedirection': ELECTRONIC,
  'ExternalPayment:WireTransfer': { kind: 'electronic', description: 'BONIFICO' },
  'ExternalPayment:Bacs': { kind: 'electronic', description: 'BONIFICO' },
  'ExternalPayment:DirectDebit': ELECTRONIC,
  'ExternalPayment:Cheque': { kind: 'cheque', description: 'ASSEGNO' },
  'ExternalPayment:Voucher': { kind: 'multi-use-voucher', description: 'BUONO MULTIUSO' },
  'ExternalPayment:GiftCard': { kind: 'multi-use-voucher', description: 'GIFT CARD' },
  'ExternalPayment:ChequeVacances': { kind: 'ticket', description: 'TICKET' },
  'ExternalPayment:Reka': { kind: 'ticket', description: 'TICKET' },
  'ExternalPayment:LoyaltyPoints': LOYALTY,
  'ExternalPayment:LoyaltyCard': LOYALTY,
  'ExternalPayment:PosDiningAndSpaReward': LOYALTY,
  'ExternalPayment:Prepayment': { kind: 'prepaid-online', description: 'PREPAGATO ONLINE' },
  'ExternalPayment:Invoice': { kind: 'not-collected-invoice', description: 'NON RISCOSSO FATTURA' },
  InvoicePayment: { kind: 'not-collected-invoice', description: 'NON RISCOSSO FATTURA' },
  'ExternalPayment:DepositCash': DEPOSIT,
  'ExternalPayment:DepositCheck': DEPOSIT,
  'ExternalPayment:DepositCreditCard': DEPOSIT,
  'ExternalPayment:DepositWireTransfer': DEPOSIT,
});

/**
 * Deposits paid by electronic means (the deposit's own payment, by its platform key): a receipt
 * that deducts any other deposit was not paid wholly electronically (lottery.ts).
 */
export const ELECTRONIC_DEPOSITS: ReadonlySet<string> = new Set([
  'ExternalPayment:DepositCreditCard',
  'ExternalPayment:DepositWireTransfer',
]);

/** The keys a platform payment answers to, most specific first. */
export function paymentKeys(payment: Pick<WirePayment, 'Type' | 'Data'>): string[] {
  const data = payment.Data;
  const sub = data?.External?.Type ?? data?.Alternative?.Type ?? data?.Invoice?.Type ?? undefined;
  return sub ? [`${payment.Type}:${sub}`, payment.Type] : [payment.Type];
}

/** The key a payment picked by the configured fallback (`defaultPayment`) carries. */
export const DEFAULT_PAYMENT_KEY = 'defaultPayment';

/** A family's configured payments in the core's terms, with its own codes kept by payment-map key. */
export interface DevicePayments<C> {
  rules: Record<string, PaymentRule>;
  fallback?: PaymentRule | undefined;
  /** Codes configured as such, by payment-map key (`defaultPayment` for the fallback). */
  codes: Record<string, C>;
}

/**
 * Reads a family's `payments:` map and `defaultPayment`, where each entry is the core's rule or
 * the family's own code (Epson's type and index, Custom's payment number, RCH's form): `read`
 * gives an entry's rule, and its code when the entry names one.
 */
export function devicePayments<M, C>(
  payments: Readonly<Record<string, M>>,
  fallback: M | undefined,
  read: (mapping: M) => { rule: PaymentRule; code?: C },
): DevicePayments<C> {
  const out: DevicePayments<C> = { rules: {}, codes: {} };
  const take = (key: string, mapping: M): PaymentRule => {
    const { rule, code } = read(mapping);
    if (code !== undefined) out.codes[key] = code;
    return rule;
  };
  for (const [key, mapping] of Object.entries(payments)) out.rules[key] = take(key, mapping);
  if (fallback) out.fallback = take(DEFAULT_PAYMENT_KEY, fallback);
  return out;
}

/**
 * The rule for a payment's keys, with the key that picked it: configured, built-in, the
 * configured fallback (key `defaultPayment`), else none.
 */
export function ruleFor(
  keys: readonly string[],
  configured: Readonly<Record<string, PaymentRule>>,
  fallback: PaymentRule | undefined,
): { rule: PaymentRule; key: string } | undefined {
  for (const key of keys) {
    const rule = configured[key];
    if (rule) return { rule, key };
  }
  for (const key of keys) {
    const rule = DEFAULT_PAYMENT_RULES[key];
    if (rule) return { rule, key };
  }
  return fallback ? { rule: fallback, key: DEFAULT_PAYMENT_KEY } : undefined;
}

/** One tax rate's share of a payment, as the platform breaks it down (a deposit's own VAT). */
export interface TaxShare {
  /** The tax rate's code, `undefined` for an untaxed share. */
  code?: string;
  netCents: number;
  taxCents: number;
}

export interface SourcePayment {
  /** The keys it answers to in the payment map, most specific first. */
  keys: string[];
  /** In units (1/10,000 euro), before any rounding. */
  units: number;
  currency: string;
  /**
   * Its VAT per rate when the platform gives it (`Amount.Breakdown.Items`, else one `TaxValues`
   * code with the net amount): what a deposit was receipted at. Empty when not given.
   */
  taxShares: TaxShare[];
}

const PAYMENT_STATES = new Set(['Charged', 'Closed']);

/**
 * A payment's VAT per rate: the platform's `Breakdown` (open-api-docs `_objects.md`, Amount: "Tax
 * breakdown items per each tax rate applied"), else a single tax code of `TaxValues` with the
 * net amount. An amount without either gives no shares (the rate cannot be told).
 */
function taxSharesOf(amount: WirePayment['Amount'], what: AmountOwner): TaxShare[] {
  const items = amount.Breakdown?.Items ?? [];
  if (items.length > 0) {
    return items.map((i) => {
      const share: TaxShare = { netCents: toCents(i.NetValue, what), taxCents: toCents(i.TaxValue, what) };
      if (i.TaxRateCode) share.code = i.TaxRateCode;
      return share;
    });
  }
  const taxes = amount.TaxValues ?? [];
  const [only] = taxes;
  if (taxes.length === 1 && only?.Code && amount.NetValue !== undefined && amount.NetValue !== null) {
    return [
      { code: only.Code, netCents: toCents(amount.NetValue, what), taxCents: toCents(only.Value, what) },
    ];
  }
  return [];
}

/** A payment that counts on the receipt (Charged or Closed); others give undefined. */
export function fromPayment(payment: WirePayment): SourcePayment | undefined {
  if (!PAYMENT_STATES.has(payment.State)) return undefined;
  const what: AmountOwner = { kind: 'payment', name: payment.Type };
  const units =
    grossOf(payment.Amount, what) ?? (payment.Amount.NetValue ? toUnits(payment.Amount.NetValue, what) : 0);
  return {
    keys: paymentKeys(payment),
    units,
    currency: payment.Amount.Currency,
    taxShares: taxSharesOf(payment.Amount, what),
  };
}

/** A payment a legacy bill carries itself; cancelled lines give undefined. */
export function fromLegacyPayment(line: LegacyLine): SourcePayment | undefined {
  if (line.canceled) return undefined;
  const keys = [...new Set([line.type, line.name].filter((k): k is string => Boolean(k)))];
  const what: AmountOwner = { kind: 'payment', name: keys[0] ?? '' };
  const [code] = line.taxCodes;
  const taxShares: TaxShare[] =
    line.taxCodes.length === 1 && code && line.net !== undefined && line.tax !== undefined
      ? [{ code, netCents: toCents(line.net, what), taxCents: toCents(line.tax, what) }]
      : [];
  return { keys, units: toUnits(line.gross, what), currency: line.currency, taxShares };
}
