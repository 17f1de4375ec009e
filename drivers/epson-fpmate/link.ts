import type { Clock } from '../../src/clock.js';
import type { Logger } from '../../src/log.js';
import type { HttpClient } from '../../src/transport/http.js';
import { documentTimeoutMs, type EpsonFpmateOptions } from './config.js';
import { fpmateEndpoint, type PostResult, postXml } from './http.js';
import {
  LAST_DOCUMENT_COMMAND,
  type LastDocument,
  parseLastDocument,
  parseSerialAnswer,
  SERIAL_COMMAND,
} from './last-document.js';
import { directIoXml, envelope, queryStatusXml, resetPrinterXml } from './xml-build.js';
import { type FpmateResponse, parseFpmateResponse } from './xml-response.js';

/** A read of the printer's last document: the record, or why there is none. */
export type CountersRead =
  | { kind: 'read'; document: LastDocument }
  | { kind: 'busy' }
  /**
   * fpmate answered that the fiscal unit behind it does not answer (`FP_NO_ANSWER`, `LAN_ERROR`,
   * `TM_NO_ANSWER/OFF_LINE` …: fiskaltrust `Models/ErrorInfoFactory.cs` L9-22): the printer's
   * web service is there, its fiscal part is away (switched off, restarting).
   */
  | { kind: 'silent'; code: string }
  /** The printer answered, but not with a last document this driver can read. */
  | { kind: 'unreadable' }
  /** Nothing answered (refused, timed out, an HTTP error): the printer may be fine but away. */
  | { kind: 'unreachable'; reason: string };

/** fpmate's codes for "the fiscal unit did not answer" (fiskaltrust `Models/ErrorInfoFactory.cs`). */
const SILENT_UNIT = new Set([
  'FP_NO_ANSWER',
  'FP_NO_ANSWER_NETWORK',
  'LAN_ERROR',
  'TM_NO_ANSWER/OFF_LINE',
  'TM_NO_ANSWER',
  'OFF_LINE',
]);

/** The exchanges with one printer address. Never throws: failures come back as values. */
export class PrinterLink {
  /** Why the last exchange gave no answer, for the status page ("ECONNREFUSED", "answer too large"). */
  lastFailure: string | undefined;

  constructor(
    readonly address: string,
    private readonly options: EpsonFpmateOptions,
    private readonly http: HttpClient,
    private readonly log: Logger,
  ) {}

  /**
   * Sends a document (receipt, report, payload) with the long document timeout; with `holdUntil`,
   * connects at once and writes the document only once it resolves (`PostOptions`).
   */
  sendDocument(xml: string, holdUntil?: Promise<unknown>): Promise<PostResult> {
    const url = fpmateEndpoint(this.address, this.options.devid, this.options.printerTimeoutMs);
    this.log.debug('fpmate document', { bytes: xml.length });
    return postXml(this.http, url, xml, { timeoutMs: documentTimeoutMs(this.options), holdUntil });
  }

  /**
   * Sends a fiscal report (X or Z): it prints for longer than a receipt, so fpmate and the HTTP
   * client get three times the document timeouts.
   */
  sendReport(xml: string): Promise<PostResult> {
    const url = fpmateEndpoint(this.address, this.options.devid, this.options.printerTimeoutMs * 3);
    this.log.debug('fpmate report', { bytes: xml.length });
    return postXml(this.http, url, xml, { timeoutMs: documentTimeoutMs(this.options) * 3 });
  }

  /** A short exchange (status, reads, reset); undefined when there is no parseable answer. */
  async exchange(body: string, signal?: AbortSignal): Promise<FpmateResponse | undefined> {
    const answer = await this.ask(body, signal);
    return answer.answered ? answer.response : undefined;
  }

  /** A short exchange that tells "nothing answered" from "an answer this driver cannot read". */
  private async ask(
    body: string,
    signal?: AbortSignal,
  ): Promise<{ answered: false; reason: string } | { answered: true; response: FpmateResponse | undefined }> {
    const readMs = this.options.readTimeoutMs;
    const url = fpmateEndpoint(this.address, this.options.devid, Math.max(100, Math.floor(readMs * 0.8)));
    const result = await postXml(this.http, url, envelope(body), { timeoutMs: readMs, signal });
    if (result.kind !== 'answer') {
      this.log.debug('fpmate exchange failed', { kind: result.kind, reason: result.reason });
      this.lastFailure = result.reason;
      return { answered: false, reason: result.reason };
    }
    if (result.httpStatus < 200 || result.httpStatus >= 300) {
      this.log.debug('fpmate exchange http error', { httpStatus: result.httpStatus });
      this.lastFailure = `HTTP ${result.httpStatus}`;
      return { answered: false, reason: this.lastFailure };
    }
    const response = parseFpmateResponse(result.body);
    this.lastFailure = response ? undefined : 'unreadable answer';
    return { answered: true, response };
  }

  /** `queryPrinterStatus statusType="1"`; undefined when the printer does not answer it. */
  async queryStatus(signal?: AbortSignal): Promise<FpmateResponse | undefined> {
    const response = await this.exchange(queryStatusXml(1), signal);
    return response?.success ? response : undefined;
  }

  /** The printer's last emitted document (`directIO 1387`); undefined when it cannot be read. */
  async readLastDocument(signal?: AbortSignal): Promise<LastDocument | undefined> {
    const read = await this.readCounters(signal);
    return read.kind === 'read' ? read.document : undefined;
  }

  /** The last-document read, telling a busy printer (LAN_TIME_OUT) from an unreadable one. */
  async readCounters(signal?: AbortSignal): Promise<CountersRead> {
    const { command, data } = LAST_DOCUMENT_COMMAND;
    const answer = await this.ask(directIoXml(command, data), signal);
    if (!answer.answered) return { kind: 'unreachable', reason: answer.reason };
    const response = answer.response;
    if (response?.code === 'LAN_TIME_OUT') return { kind: 'busy' };
    if (response && !response.success && SILENT_UNIT.has(response.code))
      return { kind: 'silent', code: response.code };
    const document = response?.success ? parseLastDocument(response.addInfo.responseData) : undefined;
    return document ? { kind: 'read', document } : { kind: 'unreadable' };
  }

  /**
   * Reads the counters, waiting `busyRetryDelayMs` and reading again (at most `busyRetries`
   * times) while the printer answers LAN_TIME_OUT: reads change nothing, so repeating them is safe.
   * Resolves the last read (still `busy` when the retries ran out or the wait was aborted).
   */
  async settleCounters(clock: Clock, signal?: AbortSignal): Promise<CountersRead> {
    for (let attempt = 0; ; attempt++) {
      const read = await this.readCounters(signal);
      if (read.kind !== 'busy' || attempt >= this.options.busyRetries) return read;
      try {
        await clock.sleep(this.options.busyRetryDelayMs, signal);
      } catch {
        return read;
      }
    }
  }

  /** {@link settleCounters}, as the last document or undefined when it could not be read. */
  async readCountersPatiently(clock: Clock, signal?: AbortSignal): Promise<LastDocument | undefined> {
    const read = await this.settleCounters(clock, signal);
    return read.kind === 'read' ? read.document : undefined;
  }

  /** The serial (`directIO 3217` and the status answer's `rtType`); undefined when not readable. */
  async readSerial(rtType: string | undefined, signal?: AbortSignal): Promise<string | undefined> {
    if (!rtType) return undefined;
    const { command, data } = SERIAL_COMMAND;
    const response = await this.exchange(directIoXml(command, data), signal);
    return response?.success ? parseSerialAnswer(response.addInfo.responseData, rtType) : undefined;
  }

  /** Clears a half-open document; best effort (a failure is logged, not thrown). */
  async reset(): Promise<boolean> {
    const response = await this.exchange(resetPrinterXml(this.options.operator));
    if (!response?.success) this.log.warn('resetPrinter failed', { code: response?.code });
    return response?.success === true;
  }
}
