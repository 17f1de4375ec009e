import type { Rng } from './rng.js';

/**
 * Fiscal receipts the simulated platform knows were printed, so that later refunds can refer to
 * them (`RebatedReceiptNumber`, `RebatedReceiptSequence`, `RebatedReceiptDateTimeUtc`,
 * `PrinterSerialNumber`). The platform learns them only from the Notes the agent writes on a
 * Processed fiscal command, exactly as the real one would have to: "Receipt 0012-0034 on RT
 * 99MEY123456 …" → Z number 0012, document 0034, serial 99MEY123456.
 */

export interface KnownReceipt {
  serialNumber: string;
  /** Z report number (the `RebatedReceiptSequence`), four digits. */
  zNumber: string;
  /** Document number within the Z (the `RebatedReceiptNumber`), four digits. */
  documentNumber: string;
  dateTimeUtc: string;
  deviceId?: string;
  /** The sale bill the receipt was printed for, when the simulator created it. */
  billId?: string;
  commandId?: string;
  /** A refund command already refers to it. */
  refunded: boolean;
}

/** Reads `ZZZZ-NNNN` and the serial after "RT " from Notes; undefined when there is no pair. */
export function parseReceiptNotes(
  notes: string,
): { zNumber: string; documentNumber: string; serialNumber?: string } | undefined {
  const pair = /(\d{4})-(\d{4})/.exec(notes);
  if (!pair) return undefined;
  const serial = /\bRT\s+([A-Za-z0-9]{6,})/.exec(notes);
  const out: { zNumber: string; documentNumber: string; serialNumber?: string } = {
    zNumber: pair[1] as string,
    documentNumber: pair[2] as string,
  };
  if (serial) out.serialNumber = serial[1] as string;
  return out;
}

export class ReceiptBook {
  private receipts: KnownReceipt[] = [];

  constructor(private readonly initial: readonly Omit<KnownReceipt, 'refunded'>[] = []) {
    this.reset();
  }

  reset(): void {
    this.receipts = this.initial.map((r) => ({ ...r, refunded: false }));
  }

  all(): KnownReceipt[] {
    return this.receipts.map((r) => ({ ...r }));
  }

  add(receipt: Omit<KnownReceipt, 'refunded'>): KnownReceipt {
    const known = { ...receipt, refunded: false };
    this.receipts.push(known);
    return { ...known };
  }

  /**
   * Learns a receipt from the Notes of a Processed sale. `fallbackSerial` (the device's serial
   * from the scenario) is used when the Notes name none. Returns undefined when the Notes hold no
   * `ZZZZ-NNNN` pair.
   */
  learn(
    notes: string,
    context: { at: string; deviceId: string; billId?: string; commandId: string; fallbackSerial?: string },
  ): KnownReceipt | undefined {
    const parsed = parseReceiptNotes(notes);
    const serialNumber = parsed?.serialNumber ?? context.fallbackSerial;
    if (!parsed || !serialNumber) return undefined;
    const receipt: Omit<KnownReceipt, 'refunded'> = {
      serialNumber,
      zNumber: parsed.zNumber,
      documentNumber: parsed.documentNumber,
      dateTimeUtc: context.at,
      deviceId: context.deviceId,
      commandId: context.commandId,
    };
    if (context.billId) receipt.billId = context.billId;
    return this.add(receipt);
  }

  /**
   * Picks a receipt not yet refunded (of one of `deviceIds` when given), one that `preferred`
   * likes when there is any, and marks it refunded.
   */
  takeForRefund(
    rng: Rng,
    deviceIds?: readonly string[],
    preferred: (receipt: KnownReceipt) => boolean = () => true,
  ): KnownReceipt | undefined {
    const open = this.receipts.filter(
      (r) => !r.refunded && (!deviceIds || !r.deviceId || deviceIds.includes(r.deviceId)),
    );
    if (open.length === 0) return undefined;
    const liked = open.filter(preferred);
    const chosen = rng.pick(liked.length > 0 ? liked : open);
    chosen.refunded = true;
    return { ...chosen };
  }
}
