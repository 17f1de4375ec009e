import type { DeviceStatus, FactsOf } from '../../src/drivers-api/types.js';
import type { Message } from '../../src/messages/message.js';
import { RtCardBase } from '../fiscal-it/rt/board-base.js';
import { rtCardWords as card } from '../fiscal-it/rt/messages.js';
import type { PrinterState } from './link.js';
import { rchFactWords as f, type rchLabels, rchStatusWords as s } from './messages-printer.js';

type Facts = FactsOf<typeof rchLabels>;

/**
 * An RT in service answers `<</?i/*3` `111000`: registered, activated, in RT mode, operating, not
 * revoked, not retired (rch-driver-js `src/printer/RTStatus.ts`; Leahcim12/optyker-web
 * `Emit-Receipt` refuses to print otherwise).
 */
export const RT_IN_SERVICE = '111000';

/**
 * What the status page, `doctor` and `/metrics` show of an RCH printer, under the fact names the
 * other RT families use (paper, cover, documentState …): from every answer the flags paper end,
 * cover open, printer error (lyancoder/fiscal-printer `xml-RCH-http.ts`); from `<</?s` the key and
 * whether a document is open, from `<</?7` the closures made; once, the serial (`<</?m`), the
 * firmware (`<</?f`) and the RT state (`<</?i/*3`); each poll, the files waiting for the tax
 * agency (`<</?i/*5`, rch-driver-js `src/printer/InactivityAndPendings.ts`). The fiscal day and
 * the rest of the card are the kit's (`RtCardBase`).
 */
export class StatusBoard extends RtCardBase {
  private readonly printer: Facts = {};
  private readonly info: Facts = {};
  private flags: Pick<PrinterState, 'paperEnd' | 'coverOpen' | 'printerError'> | undefined;

  /** A status read, or the flags of any answer. */
  noteFlags(flags: Pick<PrinterState, 'paperEnd' | 'coverOpen' | 'printerError'>): void {
    this.touched();
    this.flags = { paperEnd: flags.paperEnd, coverOpen: flags.coverOpen, printerError: flags.printerError };
    this.printer.paper = flags.paperEnd ? f.paperOut() : f.paperOk();
    this.printer.cover = flags.coverOpen ? f.coverOpen() : f.coverClosed();
  }

  noteState(state: PrinterState): void {
    this.noteFlags(state);
    this.printer.key = state.mode;
    this.printer.documentState = state.idle ? f.noDocument() : f.documentOpen();
    if (state.z !== undefined) this.printer.zCount = state.z;
    if (state.doc !== undefined) this.printer.lastDocument = state.doc;
  }

  noteInfo(info: { serial?: string; firmware?: string; rtState?: string; filesToSend?: number }): void {
    if (info.serial) this.info.serialNumber = info.serial;
    if (info.firmware) this.info.firmware = info.firmware;
    if (info.rtState) this.info.rtState = info.rtState;
    if (info.filesToSend !== undefined) this.info.filesToSend = info.filesToSend;
  }

  snapshot(): DeviceStatus {
    const warnings: Message[] = [];
    if (this.flags?.paperEnd) warnings.push(card.paperOut());
    if (this.flags?.coverOpen) warnings.push(card.coverOpen());
    if (this.flags?.printerError) warnings.push(s.printerError());
    const rt = this.info.rtState;
    if (typeof rt === 'string' && rt !== RT_IN_SERVICE) warnings.push(s.notInService({ state: rt }));
    return this.card({ ...this.printer, ...this.info }, warnings);
  }
}
