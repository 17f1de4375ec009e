import type { Clock } from '../clock.js';
import type { Ledger } from './bills.js';
import { type CommandPayload, type CommandStore, rejection, type SimCommand } from './commands.js';
import type { MalformedKind } from './fault-schema.js';
import { type Envelope, fpmateReceiptXml, receiptForBill } from './fpmate.js';
import type { VatRate } from './money.js';
import { STAFF_NAMES } from './names.js';
import { tinyPdf } from './pdf.js';
import type { KnownReceipt, ReceiptBook } from './receipts.js';
import { deriveRng, type Rng } from './rng.js';
import type { CommandKind } from './scenario.js';
import type { SimDevice, SimReservation, World } from './world.js';

/** What a caller may fix when creating a command; everything else is drawn from the rng. */
export interface CreateCommandOptions {
  /** The device (must have the type the kind needs); default: one at random. */
  deviceId?: string;
  /** keys: the reservation; fiscal sales and printer: whose stay it is. */
  reservationId?: string;
  keyCount?: number;
  copyCount?: number;
  /** printer: `FileType` (default application/pdf). */
  fileType?: string;
  /** printer: `FileData`, Base64 (default: a one-page PDF about the stay). */
  fileData?: string;
  /** fiscal-refund: the receipt refunded; default: a known receipt not yet refunded. */
  receipt?: Omit<KnownReceipt, 'refunded'>;
  /** fiscal-payload: SOAP envelope or bare root. */
  envelope?: Envelope;
  malformed?: MalformedKind;
  /**
   * Created this long ago (ms) and left Pending since: its `CreatedUtc` and `UpdatedUtc` lie in
   * the past (a command an agent's lookback window no longer covers). Default 0.
   */
  ageMs?: number;
}

export const DEVICE_TYPE_OF: Record<CommandKind, SimDevice['type']> = {
  'fiscal-data': 'FiscalMachine',
  'fiscal-refund': 'FiscalMachine',
  'fiscal-payload': 'FiscalMachine',
  keys: 'KeyCutter',
  printer: 'Printer',
  'payment-terminal': 'PaymentTerminal',
};

export interface FactoryDeps {
  world: World;
  ledger: Ledger;
  store: CommandStore;
  receipts: ReceiptBook;
  clock: Clock;
  departments: Readonly<Partial<Record<VatRate, number>>>;
}

/**
 * Creates commands of every kind with coherent data: a bill whose items and payments balance, a
 * receipt document built from that bill, key data from a real reservation. Rejects (400) when the
 * given device is unknown or has the wrong type, or when no device of the needed type exists, or
 * when a refund has no receipt to refer to.
 */
export class CommandFactory {
  constructor(private readonly deps: FactoryDeps) {}

  /** The devices a command of `kind` may be generated for (a payload only where it can print it). */
  devicesFor(kind: CommandKind, allowed?: readonly string[]): SimDevice[] {
    return this.deps.world.devices.filter(
      (d) =>
        d.type === DEVICE_TYPE_OF[kind] &&
        (kind !== 'fiscal-payload' || (d.type === 'FiscalMachine' && d.payloads)) &&
        (!allowed || allowed.includes(d.id)),
    );
  }

  private pickDevice(
    kind: CommandKind,
    rng: Rng,
    options: CreateCommandOptions,
    allowed?: readonly string[],
  ) {
    if (options.deviceId !== undefined) {
      const device = this.deps.world.device(options.deviceId);
      if (!device) throw rejection(400, `Invalid deviceId: unknown device ${options.deviceId}`);
      if (device.type !== DEVICE_TYPE_OF[kind]) {
        throw rejection(
          400,
          `Invalid deviceId: ${kind} commands need a ${DEVICE_TYPE_OF[kind]}, not a ${device.type}`,
        );
      }
      return device;
    }
    const candidates = this.devicesFor(kind, allowed);
    if (candidates.length === 0)
      throw rejection(400, `Invalid kind: no ${DEVICE_TYPE_OF[kind]} device for ${kind}`);
    return rng.pick(candidates);
  }

  /** The fiscal device that printed `receipt` (by id, else by serial), if the scenario has it. */
  private printerOf(receipt: KnownReceipt): SimDevice | undefined {
    return this.deps.world.devices.find(
      (d) =>
        d.type === 'FiscalMachine' &&
        (receipt.deviceId ? d.id === receipt.deviceId : d.serialNumber === receipt.serialNumber),
    );
  }

  private anyReservation(rng: Rng): SimReservation {
    const all = this.deps.world.reservations;
    if (all.length === 0) throw rejection(400, 'Invalid ReservationId: the scenario has no reservations');
    return rng.pick(all);
  }

  private reservation(rng: Rng, enterpriseId: string, id?: string): SimReservation | undefined {
    if (id !== undefined) {
      const r = this.deps.world.reservation(id);
      if (!r) throw rejection(400, `Invalid ReservationId: unknown reservation ${id}`);
      return r;
    }
    const own = this.deps.world.reservations.filter((r) => r.enterpriseId === enterpriseId);
    return own.length > 0 && rng.chance(0.75) ? rng.pick(own) : undefined;
  }

  /** Creates a Pending command, stores it (which pushes its WebSocket event) and returns it. */
  /**
   * A receipt whose bill took nothing off its total (no deposit receipted before, no voucher): a
   * refund mirroring the bill then gives back exactly what the receipt took. The refund of a
   * receipt with a deduction would give back more, which an RT refuses (and the agent does not
   * print a refund with a deduction); the simulator still issues one when no other is left.
   */
  private refundsInFull(receipt: KnownReceipt): boolean {
    const bill = receipt.billId ? this.deps.ledger.bill(receipt.billId) : undefined;
    return !bill?.payments.some((p) => p.type === 'ExternalPayment');
  }

  create(
    kind: CommandKind,
    rng: Rng,
    options: CreateCommandOptions = {},
    allowed?: readonly string[],
  ): SimCommand {
    const now = this.deps.clock.now() - Math.max(0, options.ageMs ?? 0);
    let receipt: KnownReceipt | undefined;
    if (kind === 'fiscal-refund') {
      receipt = options.receipt
        ? { ...options.receipt, refunded: true }
        : this.deps.receipts.takeForRefund(
            rng,
            this.devicesFor(kind, allowed).map((d) => d.id),
            (r) => this.refundsInFull(r),
          );
      if (!receipt) throw rejection(400, 'Invalid kind: no known receipt to refund yet');
    }
    const device =
      (receipt && options.deviceId === undefined ? this.printerOf(receipt) : undefined) ??
      this.pickDevice(kind, rng, options, allowed);
    const staff = rng.pick(STAFF_NAMES);
    const payload = this.payload(kind, rng, device, options, now, receipt);
    const command: Omit<SimCommand, 'seq' | 'state' | 'updatedAt' | 'history'> = {
      id: rng.uuid(),
      kind,
      deviceId: device.id,
      enterpriseId: device.enterpriseId,
      createdAt: now,
      creator: { ...staff, profileId: deriveRng(0, `staff:${staff.lastName}`).uuid() },
      payload,
    };
    if (options.malformed) command.malformed = options.malformed;
    return this.deps.store.add(command);
  }

  private payload(
    kind: CommandKind,
    rng: Rng,
    device: SimDevice,
    options: CreateCommandOptions,
    now: number,
    receipt: KnownReceipt | undefined,
  ): CommandPayload {
    const { ledger, world } = this.deps;
    // Draw order matters for reproducibility: keep every branch's draws in a fixed sequence.
    switch (kind) {
      case 'fiscal-data':
      case 'fiscal-payload': {
        const bill = ledger.createSale(
          rng,
          device.enterpriseId,
          now,
          this.reservation(rng, device.enterpriseId, options.reservationId),
          // Bills the agent prints from data also carry exempt lines, tips, deposits, vouchers and
          // unpaid amounts; a payload the platform builds itself stays a plain one.
          { variety: kind === 'fiscal-data' },
        );
        if (kind === 'fiscal-data') {
          const serial = device.type === 'FiscalMachine' ? device.serialNumber : undefined;
          return { kind, billId: bill.id, document: { type: 'data', isRefund: false, serialNumber: serial } };
        }
        const envelope = options.envelope ?? (rng.chance(0.5) ? 'soap' : 'bare');
        const hotel = world.enterprise(device.enterpriseId)?.name ?? 'Hotel';
        const xml = fpmateReceiptXml(receiptForBill(bill, hotel, this.deps.departments), envelope);
        return { kind, billId: bill.id, document: { type: 'payload', envelope, xml } };
      }
      case 'fiscal-refund': {
        const rebated = receipt as KnownReceipt;
        const original = rebated.billId ? ledger.bill(rebated.billId) : undefined;
        const bill = ledger.createRefund(rng, device.enterpriseId, now, original);
        return { kind, billId: bill.id, document: { type: 'data', isRefund: true, rebated } };
      }
      case 'keys': {
        const reservation =
          this.reservation(rng, device.enterpriseId, options.reservationId) ?? this.anyReservation(rng);
        return { kind, reservationId: reservation.id, keyCount: options.keyCount ?? rng.int(1, 3) };
      }
      case 'printer': {
        const r = this.reservation(rng, device.enterpriseId, options.reservationId);
        const lines = r
          ? [
              'Scheda di registrazione',
              `${r.guest.firstName ?? ''} ${r.guest.lastName}`.trim(),
              `Camera ${r.rooms.join(', ')}`,
            ]
          : ['Documento di prova', `Stampa ${rng.int(1000, 9999)}`];
        return {
          kind,
          copyCount: options.copyCount ?? rng.int(1, 2),
          fileType: options.fileType ?? 'application/pdf',
          fileData: options.fileData ?? tinyPdf(lines).toString('base64'),
        };
      }
      case 'payment-terminal':
        return {
          kind,
          amountCents: rng.int(10, 500) * 100,
          billId: rng.uuid(),
          customerId:
            this.reservation(rng, device.enterpriseId, options.reservationId)?.guest.customerId ?? rng.uuid(),
        };
    }
  }
}
