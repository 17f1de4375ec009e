import { Ledger, type SimBill, type SimBillEntry, type SimOrderItem, type SimPayment } from './bills.js';
import { splitGross, wireAmount } from './money.js';
import { utc } from './time.js';

/**
 * Bills, order items and payments in the platform's wire shapes, key for key as in the docs'
 * samples (`fiscalMachineCommands-getAll`, `orderItems-getAll`, `payments-getAll`).
 */

type Json = Record<string, unknown>;

/** A bill of version 2025-06-23: no line items. */
export function wireBill(bill: SimBill): Json {
  const at = utc(bill.createdAt);
  return {
    Id: bill.id,
    Name: bill.name,
    EnterpriseId: bill.enterpriseId,
    AccountId: bill.accountId,
    AccountType: 'Customer',
    AssociatedAccountIds: null,
    CounterId: null,
    State: 'Closed',
    Type: 'Receipt',
    Number: bill.number,
    VariableSymbol: `VS${bill.number}`,
    CreatedUtc: at,
    UpdatedUtc: at,
    IssuedUtc: at,
    TaxedUtc: at,
    PaidUtc: at,
    DueUtc: null,
    LastReminderDateUtc: null,
    PurchaseOrderNumber: null,
    Notes: bill.isRefund ? 'Rimborso' : null,
    Options: null,
    Owner: null,
    AssociatedAccountsData: null,
    EnterpriseData: null,
    CorrectionState: bill.isRefund ? 'CorrectiveBill' : 'Bill',
    CorrectionType: bill.isRefund ? 'CreditNote' : null,
    CorrectedBillId: bill.correctedBillId ?? null,
  };
}

/** The legacy bill of `commands/*`: the same fields plus its accounting items. */
export function wireLegacyBill(bill: SimBill, ledger: Ledger): Json {
  return {
    ...wireBill(bill),
    Revenue: bill.items.map((item) => {
      const { unit, line } = Ledger.amounts(item);
      const code = ledger.taxCode(item.rate);
      return {
        Id: item.id,
        AccountId: item.accountId,
        BillId: item.billId,
        AccountingCategoryId: item.accountingCategoryId,
        Type:
          item.type === 'CityTax'
            ? 'CityTax'
            : item.type === 'SpaceOrder'
              ? 'ServiceRevenue'
              : 'ProductRevenue',
        Name: item.description,
        Notes: null,
        UnitCount: item.unitCount,
        UnitAmount: legacyAmount(wireAmount(unit, code)),
        Amount: legacyAmount(wireAmount(line, code)),
        ConsumptionUtc: utc(item.createdAt),
        CanceledUtc: null,
        State: 'Closed',
      };
    }),
    Payments: bill.payments.map((p) => ({
      Id: p.id,
      AccountId: p.accountId,
      BillId: p.billId,
      AccountingCategoryId: null,
      Type: 'Payment',
      Name: paymentName(p),
      Notes: null,
      UnitCount: 1,
      Amount: legacyAmount(wireAmount(splitGross(p.grossCents, 0), null)),
      ConsumptionUtc: utc(p.createdAt),
      CanceledUtc: null,
      State: 'Closed',
    })),
  };
}

function legacyAmount(amount: ReturnType<typeof wireAmount>): Json {
  const { Breakdown: _b, ...rest } = amount;
  return { ...rest, Value: rest.GrossValue };
}

function paymentName(p: SimPayment): string {
  if (p.type === 'ExternalPayment') return p.externalType === 'Voucher' ? 'Buono' : 'Acconto';
  if (p.type === 'InvoicePayment') return 'Fattura';
  return p.type === 'CashPayment' ? 'Contanti' : 'Carta di credito';
}

/** `Data` of a payment as payments/getAll gives it (open-api-docs payments.md, Payment data). */
function paymentData(p: SimPayment): Json | null {
  const empty = { CreditCard: null, Invoice: null, External: null, Ghost: null, Alternative: null };
  if (p.type === 'CreditCardPayment') {
    return {
      Discriminator: 'CreditCard',
      ...empty,
      CreditCard: { CreditCardId: p.creditCardId ?? null, Transaction: null },
    };
  }
  if (p.type === 'ExternalPayment') {
    return {
      Discriminator: 'External',
      ...empty,
      External: { Type: p.externalType ?? 'Unspecified', ExternalIdentifier: null },
    };
  }
  if (p.type === 'InvoicePayment') {
    return {
      Discriminator: 'Invoice',
      ...empty,
      Invoice: { InvoiceId: null, Type: p.invoiceType ?? 'Receivable' },
    };
  }
  return null;
}

/** What an order item and a payment both carry: a closed entry of the customer's account, on its bill. */
function wireEntry(e: SimBillEntry): Json {
  const at = utc(e.createdAt);
  return {
    Id: e.id,
    EnterpriseId: e.enterpriseId,
    AccountId: e.accountId,
    AccountType: 'Customer',
    BillId: e.billId,
    CreatedUtc: at,
    UpdatedUtc: at,
    ConsumedUtc: at,
    ClosedUtc: at,
    AccountingState: 'Closed',
  };
}

export function wireOrderItem(item: SimOrderItem, ledger: Ledger): Json {
  const { unit, line } = Ledger.amounts(item);
  // An exempt item carries no tax code (open-api-docs concepts/taxation.md: "Tax-exempt items
  // should be sent with TaxCode value null").
  const code = item.exemption ? null : ledger.taxCode(item.rate);
  const at = utc(item.createdAt);
  return {
    ...wireEntry(item),
    Notes: item.description,
    ServiceId: item.serviceId,
    ServiceOrderId: item.reservationId ?? null,
    AccountingCategoryId: item.accountingCategoryId,
    UnitCount: item.unitCount,
    UnitAmount: wireAmount(unit, code),
    Amount: wireAmount(line, code),
    OriginalAmount: wireAmount(line, code),
    RevenueType: item.revenueType,
    CreatorProfileId: null,
    UpdaterProfileId: null,
    CanceledUtc: null,
    StartUtc: at,
    Type: item.type,
    TaxExemptionReason: item.exemption ?? null,
    Options: { CanceledWithReservation: false },
    Data: item.productId
      ? {
          Discriminator: 'Product',
          Rebate: null,
          Product: { ProductId: item.productId, AgeCategoryId: null },
        }
      : null,
  };
}

export function wirePayment(p: SimPayment): Json {
  const amount = p.receipted
    ? wireAmount(splitGross(p.grossCents, p.receipted.rate), p.receipted.taxCode)
    : wireAmount(splitGross(p.grossCents, 0), null);
  const at = utc(p.createdAt);
  return {
    ...wireEntry(p),
    PaymentRequestId: null,
    ReservationId: p.reservationId ?? null,
    AccountingCategoryId: null,
    Amount: amount,
    OriginalAmount: amount,
    Notes: null,
    SettlementId: null,
    ChargedUtc: at,
    SettlementUtc: null,
    State: 'Charged',
    Identifier: p.type === 'CreditCardPayment' ? `ch_${p.id}` : '',
    Type: p.type,
    Kind: p.grossCents > 0 ? 'Refund' : 'Payment',
    Data: paymentData(p),
    PaymentOrigin: p.type === 'CreditCardPayment' ? 'Terminal' : 'PointOfSales',
  };
}
