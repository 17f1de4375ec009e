import type { Agent } from 'undici';
import type { Logger } from '../../src/log.js';
import { documentTimeoutMs, type EpsonFpmateOptions } from './config.js';
import { fpmateEndpoint, type PostResult, postXml } from './http.js';
import { type LastDocument, parseLastDocument } from './last-document.js';
import { directIoXml, envelope, queryStatusXml, resetPrinterXml } from './xml-build.js';
import { type FpmateResponse, parseFpmateResponse } from './xml-response.js';

/** Serialises work on one printer: fpmate handles one request at a time. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

/** The exchanges with one printer address. Never throws: failures come back as values. */
export class PrinterLink {
  constructor(
    readonly address: string,
    private readonly options: EpsonFpmateOptions,
    private readonly fetchImpl: typeof fetch,
    private readonly dispatcher: Agent | undefined,
    private readonly log: Logger,
  ) {}

  /** Sends a document (receipt, report, payload) with the long document timeout. */
  sendDocument(xml: string): Promise<PostResult> {
    const url = fpmateEndpoint(this.address, this.options.devid, this.options.printerTimeoutMs);
    this.log.debug('fpmate document', { bytes: xml.length });
    return postXml(url, xml, {
      fetch: this.fetchImpl,
      dispatcher: this.dispatcher,
      timeoutMs: documentTimeoutMs(this.options),
    });
  }

  /** A short exchange (status, reads, reset); undefined when there is no parseable answer. */
  async exchange(body: string, signal?: AbortSignal): Promise<FpmateResponse | undefined> {
    const readMs = this.options.readTimeoutMs;
    const url = fpmateEndpoint(this.address, this.options.devid, Math.max(100, Math.floor(readMs * 0.8)));
    const result = await postXml(url, envelope(body), {
      fetch: this.fetchImpl,
      dispatcher: this.dispatcher,
      timeoutMs: readMs,
      signal,
    });
    if (result.kind !== 'answer') {
      this.log.debug('fpmate exchange failed', { kind: result.kind, reason: result.reason });
      return undefined;
    }
    if (result.httpStatus < 200 || result.httpStatus >= 300) {
      this.log.debug('fpmate exchange http error', { httpStatus: result.httpStatus });
      return undefined;
    }
    return parseFpmateResponse(result.body);
  }

  /** `queryPrinterStatus statusType="1"`; undefined when the printer does not answer it. */
  async queryStatus(signal?: AbortSignal): Promise<FpmateResponse | undefined> {
    const response = await this.exchange(queryStatusXml(1), signal);
    return response?.success ? response : undefined;
  }

  /** The printer's last emitted document; undefined when it cannot be read. */
  async readLastDocument(signal?: AbortSignal): Promise<LastDocument | undefined> {
    const response = await this.exchange(directIoXml(this.options.lastDocumentCommand, '01'), signal);
    if (!response?.success) return undefined;
    return parseLastDocument(response.addInfo.responseData);
  }

  /** Clears a half-open document; best effort (a failure is logged, not thrown). */
  async reset(): Promise<boolean> {
    const response = await this.exchange(resetPrinterXml(this.options.operator));
    if (!response?.success) this.log.warn('resetPrinter failed', { code: response?.code });
    return response?.success === true;
  }
}
