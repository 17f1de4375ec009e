import { CATALOG, type CatalogEntry, FISCAL_EXTRAS, price } from './catalog.js';
import { DEFAULT_TAX_CODES, splitGross, type VatRate } from './money.js';
import { deriveRng, type Rng } from './rng.js';
import { customerTaxIdentifier } from './tax-codes.js';
import type { SimReservation } from './world.js';

/**
 * Bills of the simulated property with their order items and payments. A sale bill sums its
 * items' gross amounts and is settled by one or two payments (negative amounts, as in the docs'
 * samples); a refund bill mirrors an earlier bill with negated items and positive payments (the
 * money going back). Rendering lives in `bill-wire.ts`.
 */

/** What every entry of a bill carries, an item or a payment: its identity and its bill's. */
export interface SimBillEntry {
  id: string;
  seq: number;
  billId: string;
  enterpriseId: string;
  accountId: string;
  reservationId?: string;
  createdAt: number;
}

export interface SimOrderItem extends SimBillEntry {
  /** Printed as the receipt line; sent as the item's `Notes`. */
  description: string;
  type: 'SpaceOrder' | 'ProductOrder' | 'CityTax' | 'CustomItem';
  /** Why the item carries no VAT (`TaxExemptionReason`: `IT_N4` exempt, `IT_N2_2` a tip). */
  exemption?: string;
  revenueType: 'Service' | 'Product' | 'Additional';
  unitCount: number;
  /** Gross per unit, cents; negative on refund bills. */
  unitGrossCents: number;
  rate: VatRate;
  accountingCategoryId: string;
  serviceId: string;
  productId?: string;
}

export interface SimPayment extends SimBillEntry {
  /** Cents; negative for money received, positive for money refunded. */
  grossCents: number;
  type: 'CashPayment' | 'CreditCardPayment' | 'ExternalPayment' | 'InvoicePayment';
  creditCardId?: string;
  /** `Data.External.Type` of an external payment: `Voucher`, `DepositWireTransfer` … */
  externalType?: string;
  /** `Data.Invoice.Type` of an invoice payment (an amount not collected yet): `Receivable`. */
  invoiceType?: string;
  /**
   * A deposit's VAT as its own receipt carried it (an acconto is taxed when it is paid): the
   * payment's `Amount` then breaks down at that rate, which the fiscal core deducts it at.
   */
  receipted?: { rate: VatRate; taxCode: string };
}

export interface SimBill {
  id: string;
  enterpriseId: string;
  accountId: string;
  reservationId?: string;
  number: string;
  name: string;
  createdAt: number;
  isRefund: boolean;
  correctedBillId?: string;
  /**
   * The customer's codice fiscale or partita IVA when they asked for it on the receipt: the
   * fiscal command's `TaxIdentifier` (valid check characters; see tax-codes.ts).
   */
  customerTaxId?: string;
  items: SimOrderItem[];
  payments: SimPayment[];
}

/** Every total a bill needs, in cents. */
export function billTotals(bill: SimBill): { grossCents: number; paidCents: number } {
  const grossCents = bill.items.reduce((s, i) => s + i.unitGrossCents * i.unitCount, 0);
  const paidCents = bill.payments.reduce((s, p) => s + p.grossCents, 0);
  return { grossCents, paidCents };
}

export class Ledger {
  private readonly bills = new Map<string, SimBill>();
  private readonly categories = new Map<string, string>();
  private seq = 0;
  private billNumber = 1000;

  /** `seed` fixes the ids of accounting categories, services and products. */
  constructor(
    private readonly seed: number,
    private readonly taxCodes: Readonly<Record<VatRate, string>> = DEFAULT_TAX_CODES,
  ) {}

  taxCode(rate: VatRate): string {
    return this.taxCodes[rate];
  }

  bill(id: string): SimBill | undefined {
    return this.bills.get(id);
  }

  /** Every item and payment, newest first (creation order reversed). */
  allItems(): SimOrderItem[] {
    return [...this.bills.values()]
      .flatMap((b) => b.items)
      .sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq);
  }

  allPayments(): SimPayment[] {
    return [...this.bills.values()]
      .flatMap((b) => b.payments)
      .sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq);
  }

  /** A stable id per name, drawn from its own stream so it never shifts another stream. */
  private category(name: string): string {
    let id = this.categories.get(name);
    if (!id) {
      id = deriveRng(this.seed, `catalog:${name}`).uuid();
      this.categories.set(name, id);
    }
    return id;
  }

  private newBill(rng: Rng, enterpriseId: string, at: number, reservation?: SimReservation): SimBill {
    const number = String(++this.billNumber);
    const guest = reservation
      ? [reservation.guest.firstName, reservation.guest.lastName].filter(Boolean).join(' ')
      : '';
    const bill: SimBill = {
      id: rng.uuid(),
      enterpriseId,
      accountId: reservation?.guest.customerId ?? rng.uuid(),
      number,
      name: guest ? `Ricevuta ${number} – ${guest}` : `Ricevuta ${number}`,
      createdAt: at,
      isRefund: false,
      items: [],
      payments: [],
    };
    if (reservation) bill.reservationId = reservation.id;
    // Its own stream, so the draws of every other bill field stay where they were.
    const customerTaxId = customerTaxIdentifier(deriveRng(this.seed, `tax-id:${bill.id}`));
    if (customerTaxId) bill.customerTaxId = customerTaxId;
    return bill;
  }

  private addItem(
    rng: Rng,
    bill: SimBill,
    entry: Omit<SimOrderItem, 'id' | 'seq' | 'billId' | 'enterpriseId' | 'accountId' | 'createdAt'>,
  ): void {
    bill.items.push({ ...entry, ...this.entryOf(rng, bill) });
  }

  private pay(
    bill: SimBill,
    rng: Rng,
    cents: number,
    kind: Pick<SimPayment, 'type' | 'externalType' | 'invoiceType' | 'receipted'>,
  ): SimPayment {
    const payment: SimPayment = { ...this.entryOf(rng, bill), grossCents: cents, ...kind };
    bill.payments.push(payment);
    return payment;
  }

  /** A new entry of `bill`: the next id from `rng` and the next sequence number. */
  private entryOf(rng: Rng, bill: SimBill): SimBillEntry {
    const entry: SimBillEntry = {
      id: rng.uuid(),
      seq: ++this.seq,
      billId: bill.id,
      enterpriseId: bill.enterpriseId,
      accountId: bill.accountId,
      createdAt: bill.createdAt,
    };
    if (bill.reservationId) entry.reservationId = bill.reservationId;
    return entry;
  }

  /**
   * What an Italian hotel's bills also carry, drawn from the bill's own stream (so the draws of
   * plain bills do not move): an exempt item (a museum ticket, N4), a tip (not subject to VAT,
   * N2), and part of the bill settled as a deposit already receipted (`DepositWireTransfer`), a
   * multi-use voucher (`Voucher`) or left unpaid for an invoice (`InvoicePayment`, `Receivable`).
   * Resolves to the cents those special payments cover (negative, as payments are).
   */
  private vary(bill: SimBill): number {
    const rng = deriveRng(this.seed, `fiscal-variety:${bill.id}`);
    for (const extra of FISCAL_EXTRAS) {
      if (!rng.chance(extra.chance)) continue;
      this.addItem(rng, bill, {
        description: extra.description,
        type: 'CustomItem',
        revenueType: 'Additional',
        unitCount: rng.int(1, 2),
        unitGrossCents: price(rng, extra.minCents, extra.maxCents),
        rate: 0,
        exemption: extra.exemption,
        accountingCategoryId: this.category(extra.category),
        serviceId: this.category('service-products'),
      });
    }
    const owed = billTotals(bill).grossCents;
    let covered = 0;
    const part = (share: number) => Math.max(100, Math.round((owed * share) / 100) * 100);
    if (bill.reservationId && rng.chance(0.35) && owed >= 5000) {
      // A deposit prepays the stay: it was receipted at the room's 10 %, and deducts no more
      // than the bill carries at that rate.
      const atTen = bill.items
        .filter((i) => i.rate === 10 && !i.exemption)
        .reduce((s, i) => s + i.unitGrossCents * i.unitCount, 0);
      const cents = Math.min(part(0.3), owed - covered, Math.floor(atTen / 100) * 100);
      if (cents > 0) {
        this.pay(bill, rng, -cents, {
          type: 'ExternalPayment',
          externalType: 'DepositWireTransfer',
          receipted: { rate: 10, taxCode: this.taxCode(10) },
        });
        covered += cents;
      }
    }
    if (rng.chance(0.2) && owed - covered >= 2000) {
      const cents = Math.min(rng.pick([1000, 2000, 5000]), owed - covered - 100);
      this.pay(bill, rng, -cents, { type: 'ExternalPayment', externalType: 'Voucher' });
      covered += cents;
    }
    if (rng.chance(0.15) && owed - covered > 0) {
      const cents = rng.chance(0.5)
        ? owed - covered
        : Math.max(100, Math.round((owed - covered) / 200) * 100);
      this.pay(bill, rng, -cents, { type: 'InvoicePayment', invoiceType: 'Receivable' });
      covered += cents;
    }
    return -covered;
  }

  private settle(rng: Rng, bill: SimBill, covered = 0): void {
    const { grossCents } = billTotals(bill);
    const owed = -grossCents - covered;
    if (owed === 0) return;
    const split = Math.abs(owed) >= 2000 && rng.chance(0.3);
    const parts = split ? [Math.round(owed / 2), owed - Math.round(owed / 2)] : [owed];
    for (const cents of parts) {
      const type = rng.chance(0.6) ? 'CreditCardPayment' : 'CashPayment';
      const payment = this.pay(bill, rng, cents, { type });
      // Drawn after the payment's id, as it always was, so seeded bills do not move.
      if (type === 'CreditCardPayment') payment.creditCardId = rng.uuid();
    }
  }

  /**
   * A closed sale bill: room nights and city tax for a stay, plus 1..3 extras; fully paid. With
   * `variety` (the bills of `fiscal-data` commands) also exempt items, tips, deposits, vouchers
   * and unpaid amounts (see `vary`).
   */
  createSale(
    rng: Rng,
    enterpriseId: string,
    at: number,
    reservation?: SimReservation,
    options: { variety?: boolean } = {},
  ): SimBill {
    const bill = this.newBill(rng, enterpriseId, at, reservation);
    if (reservation) {
      const nights = Math.max(1, Math.min(reservation.nights, 7));
      this.addItem(rng, bill, {
        description: `Pernottamento camera ${reservation.rooms[0] ?? ''}`.trim(),
        type: 'SpaceOrder',
        revenueType: 'Service',
        unitCount: nights,
        unitGrossCents: price(rng, 8900, 18000),
        rate: 10,
        accountingCategoryId: this.category('accommodation'),
        serviceId: this.category('service-stay'),
      });
      this.addItem(rng, bill, {
        description: 'Tassa di soggiorno',
        type: 'CityTax',
        revenueType: 'Additional',
        unitCount: nights,
        unitGrossCents: rng.pick([200, 300, 350, 500]),
        rate: 0,
        accountingCategoryId: this.category('city-tax'),
        serviceId: this.category('service-stay'),
      });
    }
    const extras = rng.int(reservation ? 0 : 1, 3);
    for (let i = 0; i < extras; i++) {
      const entry = rng.pick(CATALOG);
      this.addItem(rng, bill, {
        ...this.catalogLine(entry, rng.int(1, 3), price(rng, entry.minCents, entry.maxCents)),
        productId: this.category(`product-${entry.description}`),
      });
    }
    this.settle(rng, bill, options.variety ? this.vary(bill) : 0);
    this.bills.set(bill.id, bill);
    return bill;
  }

  /**
   * A refund bill mirroring `original` (negated items, money paid back). Without an original
   * (a receipt known only from the scenario) it refunds one or two extras.
   */
  createRefund(rng: Rng, enterpriseId: string, at: number, original?: SimBill): SimBill {
    const bill = this.newBill(rng, original?.enterpriseId ?? enterpriseId, at);
    bill.isRefund = true;
    bill.name = `Nota di credito ${bill.number}`;
    if (original) {
      bill.accountId = original.accountId;
      bill.correctedBillId = original.id;
      if (original.reservationId) bill.reservationId = original.reservationId;
      for (const i of original.items) {
        const { id: _id, seq: _seq, billId: _b, enterpriseId: _e, accountId: _a, createdAt: _c, ...rest } = i;
        this.addItem(rng, bill, { ...rest, unitGrossCents: -i.unitGrossCents });
      }
    } else {
      const lines = rng.int(1, 2);
      for (let n = 0; n < lines; n++) {
        const entry = rng.pick(CATALOG);
        this.addItem(rng, bill, this.catalogLine(entry, 1, -price(rng, entry.minCents, entry.maxCents)));
      }
    }
    this.settle(rng, bill);
    this.bills.set(bill.id, bill);
    return bill;
  }

  /** An item of the catalog's `entry` (a sale's, or a refund's with a negative price). */
  private catalogLine(
    entry: CatalogEntry,
    unitCount: number,
    unitGrossCents: number,
  ): Omit<SimOrderItem, keyof SimBillEntry> {
    return {
      description: entry.description,
      type: entry.type,
      revenueType: entry.revenueType,
      unitCount,
      unitGrossCents,
      rate: entry.rate,
      accountingCategoryId: this.category(entry.category),
      serviceId: this.category('service-products'),
    };
  }

  /** Net and tax of an item's unit and whole line, split to the cent. */
  static amounts(item: SimOrderItem) {
    return {
      unit: splitGross(item.unitGrossCents, item.rate),
      line: splitGross(item.unitGrossCents * item.unitCount, item.rate),
    };
  }
}
