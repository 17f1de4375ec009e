import type { Logger } from '../../src/log.js';
import type { HttpClient } from '../../src/transport/http.js';
import { type PostResult, postBody } from '../fiscal-it/rt/http.js';
import type { PrinterRead } from '../fiscal-it/rt/printer-read.js';
import type { CustomRtOptions } from './config.js';
import { customEndpoint } from './http.js';
import {
  isNoDocument,
  LAST_DOCUMENT_COMMAND,
  type LastDocument,
  parseLastDocument,
} from './last-document.js';
import { type CustomResponse, command, directIo, element, parseResponse } from './xml.js';

/**
 * What the printer's memory says after a document, for exactly-once (witnesses.ts): the number of
 * Z reports done (`getInfo` `zSetNumber`, XML protocol manual rev 2.00 p.69), the last document
 * (directIO 1017, last-document.ts), the last `IdCmd` it took (every answer's `lastIdCmd`, p.25)
 * and whether a document is open (`fpStatus`, `receiptStep`, pp.25–28).
 */
export interface Counters {
  zDone: number | undefined;
  /** The last document; `none` when the printer has printed none; `unreadable` when 1017 cannot be read. */
  last: LastDocument | 'none' | 'unreadable';
  /** The 1017 buffer as read, for the log and an unknown outcome's details. */
  lastRaw: string;
  lastIdCmd: string | undefined;
  documentOpen: boolean;
  serial: string | undefined;
}

/**
 * Answers to a read that mean "busy, ask again" (errors.ts): 21 another terminal's document,
 * 75/76 consolidating, 97 wait, 213/217/218/221 the tax agency and exports.
 */
const BUSY = new Set([21, 75, 76, 97, 213, 217, 218, 221]);

/** The exchanges with one Custom printer. One at a time (the driver's mutex); never throws. */
export class CustomLink {
  lastFailure: string | undefined;

  constructor(
    readonly address: string,
    private readonly options: CustomRtOptions,
    private readonly http: HttpClient,
    private readonly log: Logger,
    /** The Basic-auth header, or undefined before the serial is known. */
    private readonly authorization: () => string | undefined,
  ) {}

  private post(
    body: string,
    timeoutMs: number,
    signal?: AbortSignal,
    holdUntil?: Promise<unknown>,
  ): Promise<PostResult> {
    return postBody(this.http, customEndpoint(this.address), body, {
      timeoutMs,
      signal,
      holdUntil,
      contentType: 'text/plain; charset=utf-8',
      authorization: this.authorization(),
    });
  }

  /**
   * A fiscal document: the answer comes after its end node is processed (XML p.16). With
   * `holdUntil`, connects at once and writes the document only once it resolves (`PostOptions`).
   */
  sendDocument(xml: string, signal?: AbortSignal, holdUntil?: Promise<unknown>): Promise<PostResult> {
    this.log.debug('custom document', { bytes: xml.length });
    return this.post(xml, this.options.documentTimeoutMs, signal, holdUntil);
  }

  sendReport(xml: string, signal?: AbortSignal): Promise<PostResult> {
    this.log.debug('custom report', { bytes: xml.length });
    return this.post(xml, this.options.reportTimeoutMs, signal);
  }

  /** A short exchange; tells "nothing answered" (with why) from an answer (maybe unreadable). */
  async ask(
    body: string,
    signal?: AbortSignal,
  ): Promise<
    | { answered: false; reason: string }
    | { answered: true; response: CustomResponse | undefined; httpStatus: number }
  > {
    const result = await this.post(body, this.options.readTimeoutMs, signal);
    if (result.kind !== 'answer') {
      this.lastFailure = result.reason;
      return { answered: false, reason: result.reason };
    }
    if (result.httpStatus < 200 || result.httpStatus >= 300) {
      this.lastFailure = `HTTP ${result.httpStatus}`;
      return result.httpStatus === 401 || result.httpStatus === 403
        ? { answered: true, response: undefined, httpStatus: result.httpStatus }
        : { answered: false, reason: this.lastFailure };
    }
    const response = parseResponse(result.body);
    this.lastFailure = response ? undefined : 'unreadable answer';
    return { answered: true, response, httpStatus: result.httpStatus };
  }

  async exchange(body: string, signal?: AbortSignal): Promise<CustomResponse | undefined> {
    const answer = await this.ask(body, signal);
    return answer.answered ? answer.response : undefined;
  }

  /** `queryPrinterStatus` (XML pp.107–109): printer and document state, firmware. */
  queryStatus(signal?: AbortSignal): Promise<CustomResponse | undefined> {
    return this.exchange(command(element('queryPrinterStatus')), signal);
  }

  /** `getInfo` (XML p.69): serial, Z count, certificate dates. */
  getInfo(signal?: AbortSignal): Promise<CustomResponse | undefined> {
    return this.exchange(command(element('getInfo')), signal);
  }

  /** The counters (see `Counters`): `getInfo`, then directIO 1017. Never throws. */
  async readCounters(signal?: AbortSignal): Promise<PrinterRead<Counters>> {
    const info = await this.ask(command(element('getInfo')), signal);
    if (!info.answered) return { kind: 'away', reason: info.reason };
    if (info.response && !info.response.success && BUSY.has(info.response.status))
      return { kind: 'busy', code: String(info.response.status) };
    const zText = info.response?.success ? info.response.addInfo.zSetNumber : undefined;
    const answer = await this.ask(directIo(LAST_DOCUMENT_COMMAND), signal);
    if (!answer.answered) return { kind: 'away', reason: answer.reason };
    const response = answer.response;
    if (!response) return { kind: 'unreadable', what: `1017: HTTP ${answer.httpStatus}` };
    if (!response.success) {
      return BUSY.has(response.status)
        ? { kind: 'busy', code: String(response.status) }
        : { kind: 'unreadable', what: `1017: status ${response.status}` };
    }
    const raw = (response.addInfo.responseBuf ?? '').trim();
    const parsed = parseLastDocument(raw);
    if (parsed) this.log.debug('1017 read', { layout: parsed.layout });
    const fp = response.addInfo.fpStatus ?? '000';
    const step = response.addInfo.receiptStep ?? '0';
    return {
      kind: 'read',
      evidence: {
        zDone: zText && /^\d+$/.test(zText.trim()) ? Number(zText) : undefined,
        last: parsed ?? (isNoDocument(raw) ? 'none' : 'unreadable'),
        lastRaw: raw,
        lastIdCmd: response.lastIdCmd,
        documentOpen: /[1-9]/.test(fp) || (step !== '0' && step !== ''),
        serial: info.response?.addInfo.serialNumber?.trim() || undefined,
      },
    };
  }

  /** `resetPrinter` (XML p.111): cancels any open document. Best effort. */
  async reset(): Promise<boolean> {
    const response = await this.exchange(command(element('resetPrinter')));
    if (!response?.success) this.log.warn('resetPrinter failed', { status: response?.status });
    return response?.success === true;
  }
}
