import type { WirePayment } from '../../src/connector/wire.js';

/**
 * The platform's payments as the printer records them.
 *
 * A platform payment is named by its `Type` and, for external, alternative and invoice payments,
 * the kind inside its `Data` (MewsSystems/open-api-docs `connector-api/operations/payments.md`):
 * `ExternalPayment:Voucher`, `AlternativePayment:ApplePay`, `InvoicePayment:Receivable`. The
 * configuration may map either the specific key or the bare type; the specific one wins.
 *
 * A payment becomes either a `printRecTotal` (`paymentType` and `index`, Epson Fiscal ePOS-Print:
 * 0 cash, 1 cheque, 2 electronic, 3 ticket, 5 not collected — *non riscosso* —, 6 discount to
 * pay, with the index naming the variant: 721377/procassa `lib/epsonxml.js`, fiskaltrust
 * `EpsonCommandFactory.cs` `GetEpsonPaymentType`, lyancoder/fiscal-printer
 * `lib/constants/fiscal.type.ts` `PaymentType`), or a deduction from the receipt's total: a
 * deposit already receipted (*acconto*, `printRecItemAdjustment adjustmentType="10"`,
 * procassa `itemAcconto`) or a single-use voucher whose VAT was charged when it was sold (*buono
 * monouso*, `adjustmentType="12"`, fiskaltrust `GenerateItems` for `IsSingleUseVoucher`).
 */

export type PaymentRule =
  | { paymentType: number; index: number; description?: string | undefined }
  | { deduct: 'deposit' | 'single-use-voucher'; description?: string | undefined };

/** The adjustment type of each deduction. */
export const DEDUCTION_ADJUSTMENT: Record<'deposit' | 'single-use-voucher', number> = {
  deposit: 10,
  'single-use-voucher': 12,
};

const ELECTRONIC = { paymentType: 2, index: 1, description: 'PAGAMENTO ELETTRONICO' } as const;
const CASH = { paymentType: 0, index: 0, description: 'CONTANTI' } as const;
const DEPOSIT = { deduct: 'deposit', description: 'ACCONTO' } as const;

/**
 * The default map. Cash 0/0; cheque 1/0; cards, wallets and transfers 2/1 (electronic); meal
 * and holiday tickets 3/1; vouchers and gift cards 6/1 (multi-use: their VAT is charged now, the
 * money came earlier — fiskaltrust maps its voucher payment to 6/1); amounts the hotel has not
 * collected itself 5 (*non riscosso*: 0 generic, 2 services, 3 invoiced — procassa's indexes);
 * deposits already receipted are deducted. Any other type is refused until it is mapped.
 */
export const DEFAULT_PAYMENT_RULES: Readonly<Record<string, PaymentRule>> = Object.freeze({
  CashPayment: CASH,
  'ExternalPayment:Cash': CASH,
  CreditCardPayment: { ...ELECTRONIC, description: 'CARTA DI PAGAMENTO' },
  AlternativePayment: ELECTRONIC,
  'ExternalPayment:CreditCard': ELECTRONIC,
  'ExternalPayment:MasterCard': ELECTRONIC,
  'ExternalPayment:Visa': ELECTRONIC,
  'ExternalPayment:Amex': ELECTRONIC,
  'ExternalPayment:Discover': ELECTRONIC,
  'ExternalPayment:DinersClub': ELECTRONIC,
  'ExternalPayment:Jcb': ELECTRONIC,
  'ExternalPayment:UnionPay': ELECTRONIC,
  'ExternalPayment:Bancontact': ELECTRONIC,
  'ExternalPayment:IDeal': ELECTRONIC,
  'ExternalPayment:PayPal': ELECTRONIC,
  'ExternalPayment:Twint': ELECTRONIC,
  'ExternalPayment:OnlinePayment': ELECTRONIC,
  'ExternalPayment:CardCheck': ELECTRONIC,
  'ExternalPayment:PaymentHubRedirection': ELECTRONIC,
  'ExternalPayment:WireTransfer': { ...ELECTRONIC, description: 'BONIFICO' },
  'ExternalPayment:Bacs': { ...ELECTRONIC, description: 'BONIFICO' },
  'ExternalPayment:DirectDebit': ELECTRONIC,
  'ExternalPayment:Cheque': { paymentType: 1, index: 0, description: 'ASSEGNO' },
  'ExternalPayment:Voucher': { paymentType: 6, index: 1, description: 'BUONO MULTIUSO' },
  'ExternalPayment:GiftCard': { paymentType: 6, index: 1, description: 'GIFT CARD' },
  'ExternalPayment:ChequeVacances': { paymentType: 3, index: 1, description: 'TICKET' },
  'ExternalPayment:Reka': { paymentType: 3, index: 1, description: 'TICKET' },
  'ExternalPayment:LoyaltyPoints': { paymentType: 5, index: 0, description: 'NON RISCOSSO' },
  'ExternalPayment:LoyaltyCard': { paymentType: 5, index: 0, description: 'NON RISCOSSO' },
  'ExternalPayment:PosDiningAndSpaReward': { paymentType: 5, index: 0, description: 'NON RISCOSSO' },
  'ExternalPayment:Prepayment': { paymentType: 5, index: 2, description: 'NON RISCOSSO SERVIZI' },
  'ExternalPayment:Invoice': { paymentType: 5, index: 3, description: 'NON RISCOSSO FATTURA' },
  InvoicePayment: { paymentType: 5, index: 3, description: 'NON RISCOSSO FATTURA' },
  'ExternalPayment:DepositCash': DEPOSIT,
  'ExternalPayment:DepositCheck': DEPOSIT,
  'ExternalPayment:DepositCreditCard': DEPOSIT,
  'ExternalPayment:DepositWireTransfer': DEPOSIT,
});

/** The keys a platform payment answers to, most specific first. */
export function paymentKeys(payment: Pick<WirePayment, 'Type' | 'Data'>): string[] {
  const data = payment.Data;
  const sub = data?.External?.Type ?? data?.Alternative?.Type ?? data?.Invoice?.Type ?? undefined;
  return sub ? [`${payment.Type}:${sub}`, payment.Type] : [payment.Type];
}

/** The rule for a payment's keys: configured, built-in, the configured fallback, else none. */
export function ruleFor(
  keys: readonly string[],
  configured: Readonly<Record<string, PaymentRule>>,
  fallback: PaymentRule | undefined,
): PaymentRule | undefined {
  for (const key of keys) if (configured[key]) return configured[key];
  for (const key of keys) if (DEFAULT_PAYMENT_RULES[key]) return DEFAULT_PAYMENT_RULES[key];
  return fallback;
}

export function isDeduction(rule: PaymentRule): rule is Extract<PaymentRule, { deduct: string }> {
  return 'deduct' in rule;
}
