import type { DeviceStatus, FactsOf } from '../../src/drivers-api/types.js';
import type { Message } from '../../src/messages/message.js';
import { RtCardBase } from '../fiscal-it/rt/board-base.js';
import { rtCardWords as card } from '../fiscal-it/rt/messages.js';
import { type customLabels, customFactWords as f, customStatusWords as s } from './messages-printer.js';
import type { CustomResponse } from './xml.js';

type Facts = FactsOf<typeof customLabels>;

/**
 * What the status page, `doctor` and `/metrics` show of a Custom printer, under the Epson
 * family's fact names (paper, cover, electronicJournal, documentState, fiscalDayOpen(Since),
 * certificateExpiryDevice …). From `queryPrinterStatus` (XML protocol manual rev 2.00 pp.107–109):
 * `printerStatus` is five flags S1–S5 — cover open, paper end, paper near end, journal full,
 * journal nearly full — and `fpStatus` three: fiscal receipt, non-fiscal, invoice open. From
 * `getInfo` (p.69): the serial, the Z count and the certificate's end (`certValidTo`, dd/mm/yyyy).
 */
export class StatusBoard extends RtCardBase {
  private printer: Facts = {};
  private info: Facts = {};
  /** The VAT table as read (vat-slots.ts): the fact, and a warning per finding. */
  private vatTable: { fact: Message; warnings: Message[] } | undefined;

  /** A status answer (or any answer carrying the flags). */
  noteStatus(response: CustomResponse): void {
    this.touched();
    const flags = response.addInfo.printerStatus;
    if (flags && /^[01]{5}$/.test(flags)) {
      const [cover, paperEnd, paperLow, journalFull, journalLow] = [...flags].map((c) => c === '1');
      this.printer.cover = cover ? f.open() : f.closed();
      this.printer.paper = paperEnd ? f.out() : paperLow ? f.low() : f.ok();
      this.printer.electronicJournal = journalFull ? f.full() : journalLow ? f.nearlyFull() : f.ok();
      this.printer.printerStatus = flags;
    }
    const fp = response.addInfo.fpStatus;
    if (fp) {
      this.printer.documentState =
        fp === '100'
          ? f.receiptOpen()
          : fp === '010'
            ? f.nonFiscalOpen()
            : fp === '001'
              ? f.invoiceOpen()
              : f.noDocument();
    }
    if (response.addInfo.cpuRel) this.printer.firmware = response.addInfo.cpuRel;
  }

  /** What the read of the printer's VAT slots found (`getVatRate`, vat-slots.ts). */
  vatSlotsRead(fact: Message | undefined, warnings: Message[]): void {
    if (fact) this.vatTable = { fact, warnings };
  }

  /** Closures waiting to be sent to the tax agency (directIO 1514, files.ts). */
  noteFilesWaiting(count: number): void {
    this.info.filesToSend = count;
  }

  /** A `getInfo` answer. */
  noteInfo(response: CustomResponse): void {
    const serial = response.addInfo.serialNumber?.trim();
    if (serial) this.info.serialNumber = serial;
    const until = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(response.addInfo.certValidTo?.trim() ?? '');
    if (until) this.info.certificateExpiryDevice = `${until[3]}-${until[2]}-${until[1]}`;
  }

  snapshot(): DeviceStatus {
    const warnings: Message[] = [];
    const flags = String(this.printer.printerStatus ?? '');
    if (this.printer.paper === undefined) {
      // nothing read yet
    } else if (flags.charAt(1) === '1') warnings.push(card.paperOut());
    else if (flags.charAt(2) === '1') warnings.push(s.paperLow());
    if (flags.charAt(0) === '1') warnings.push(card.coverOpen());
    if (flags.charAt(4) === '1') warnings.push(s.journalNearlyFull());
    if (this.vatTable) warnings.push(...this.vatTable.warnings);
    const facts: Facts = { ...this.printer, ...this.info };
    if (this.vatTable) facts.vatTable = this.vatTable.fact;
    // The rest of the card — a document waiting, the last job's error, the fiscal day — is the kit's.
    return this.card(facts, warnings);
  }
}
