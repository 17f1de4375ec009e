import { deviceText } from '../../src/drivers-api/device-text.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { type HttpClient, HttpFailure } from '../../src/transport/http.js';
import {
  decodeMessage,
  encodeMessage,
  IppDecodeError,
  type IppMessage,
  type IppOutAttribute,
  type IppOutGroup,
  operationGroup,
} from './ipp-codec.js';
import { OPERATION_NAMES, Status, statusName } from './ipp-constants.js';
import { ippMessages } from './messages.js';

/**
 * IPP over the agent's one HTTP stack (`ctx.http` → `src/transport/http.ts`): every operation is
 * one `POST` of `application/ipp` to the printer's URI with `ipp:` read as `http:` and `ipps:` as
 * `https:` (RFC 8010 §4, RFC 7472; default port 631 for both). Answers are capped at
 * `maxAnswerBytes`; every exchange has a timeout.
 *
 * What a failure means for the job is kept apart, because it decides whether a document may be
 * sent again:
 * - `IppUnreachable`: the request certainly never reached the printer (refused, no route, DNS,
 *   certificate refused) — `sent: false`;
 * - `IppLost`: it may have arrived (timeout, connection dropped mid-way, garbage answer) —
 *   `sent: true`;
 * - an answer with an IPP status is returned as it is; the caller reads `status`.
 */

export interface IppAnswer {
  status: number;
  statusName: string;
  /** `status-message` of the operation group, if the printer gave one. */
  message?: string;
  response: IppMessage;
}

export class IppTransportError extends Error {
  override readonly name = 'IppTransportError';
  constructor(
    message: string,
    /** False only when the request certainly never reached the printer. */
    readonly sent: boolean,
    readonly kind: 'unreachable' | 'timeout' | 'broken' | 'http-status' | 'garbage',
    /** The HTTP status when the web server refused the request (401: a password is required). */
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

/** What staff read of a failed exchange ("unreachable", "no answer in time", "HTTP 401" …). */
export function transportWords(e: IppTransportError): Message {
  switch (e.kind) {
    case 'timeout':
      return ippMessages.noAnswerInTime();
    case 'broken':
      return ippMessages.connectionBroken();
    case 'http-status':
      return e.httpStatus
        ? ippMessages.webServerAnswered({ status: e.httpStatus })
        : ippMessages.notIppAnswer();
    case 'garbage':
      return ippMessages.notIppAnswer();
    default:
      return ippMessages.unreachable();
  }
}

/** Converts `ipp://host/path` (or ipps, http, https) into the HTTP address the POST goes to. */
export function httpUrlOf(printerUri: string): URL {
  const url = new URL(printerUri);
  const scheme = url.protocol;
  if (scheme === 'ipp:' || scheme === 'ipps:') {
    const http = new URL(printerUri.replace(/^ipps?:/i, scheme === 'ipps:' ? 'https:' : 'http:'));
    if (!url.port) http.port = '631';
    return http;
  }
  if (scheme === 'http:' || scheme === 'https:') return url;
  throw new AgentError('CONFIG_INVALID', `not an IPP printer address: ${scheme}`);
}

/** The address with userinfo and query removed, as shown in logs and Notes. */
export function shownUri(printerUri: string): string {
  try {
    const url = new URL(printerUri);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return 'an invalid address';
  }
}

/**
 * Document bytes after the attributes (Print-Job): written into the request's buffer (`write`),
 * or sent after it as they are, part by part (`parts`: a document decoded as it arrived is never
 * joined into one more buffer).
 */
export type IppDocument =
  | { length: number; write: (target: Buffer, offset: number) => void }
  | { parts: Iterable<Uint8Array>; length: number };

export interface IppCallOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Document bytes to append after the attributes (Print-Job). */
  document?: IppDocument;
}

export class IppClient {
  private requestId = 0;

  constructor(
    private readonly http: HttpClient,
    private readonly maxAnswerBytes: number,
  ) {}

  /**
   * Sends one operation to `printerUri` (whose `printer-uri` operation attribute is filled in, as
   * are the charset and language), with the given extra operation attributes and groups.
   * Rejects with IppTransportError (or the signal's reason); an IPP error status is an answer.
   */
  async call(
    printerUri: string,
    operation: number,
    attributes: IppOutAttribute[],
    options: IppCallOptions,
    extraGroups: IppOutGroup[] = [],
  ): Promise<IppAnswer> {
    this.requestId = (this.requestId % 0x7fffffff) + 1;
    const requestId = this.requestId;
    const op = OPERATION_NAMES[operation] ?? `operation 0x${operation.toString(16)}`;
    const { buffer, dataOffset } = encodeMessage(
      {
        code: operation,
        requestId,
        groups: [
          operationGroup({ name: 'printer-uri', values: [{ tag: 0x45, value: printerUri }] }, ...attributes),
          ...extraGroups,
        ],
      },
      options.document && 'write' in options.document ? options.document.length : 0,
    );
    if (options.document && 'write' in options.document) options.document.write(buffer, dataOffset);
    const document = options.document && 'parts' in options.document ? options.document : undefined;
    const body = document
      ? { parts: withHead(buffer, document.parts), length: buffer.length + document.length }
      : buffer;
    let url: URL;
    try {
      url = httpUrlOf(printerUri);
    } catch {
      throw new IppTransportError(
        `${op}: ${shownUri(printerUri)} is not an IPP address`,
        false,
        'unreachable',
      );
    }
    let answer: Awaited<ReturnType<HttpClient['request']>>;
    try {
      answer = await this.http.request({
        method: 'POST',
        url,
        headers: { 'Content-Type': 'application/ipp', Accept: 'application/ipp' },
        body,
        timeoutMs: options.timeoutMs,
        maxBytes: this.maxAnswerBytes,
        signal: options.signal,
      });
    } catch (e) {
      if (!(e instanceof HttpFailure)) throw e;
      const kind = !e.sent ? 'unreachable' : e.code === 'HTTP_TIMEOUT' ? 'timeout' : 'broken';
      throw new IppTransportError(`${op}: ${e.message}`, e.sent, kind);
    }
    if (answer.status !== 200) {
      // 401/403/404/5xx: the HTTP layer refused it; an IPP printer acts on nothing it refuses here.
      throw new IppTransportError(
        `${op}: HTTP ${answer.status} ${answer.statusText}`,
        true,
        'http-status',
        answer.status,
      );
    }
    let response: IppMessage;
    try {
      response = decodeMessage(answer.body);
    } catch (e) {
      const why = e instanceof IppDecodeError ? e.message : String(e);
      throw new IppTransportError(`${op}: the printer's answer is not IPP (${why})`, true, 'garbage');
    }
    if (response.requestId !== requestId && response.requestId !== 0) {
      throw new IppTransportError(`${op}: the answer belongs to another request`, true, 'garbage');
    }
    const status = response.code;
    const out: IppAnswer = { status, statusName: statusName(status), response };
    const message = response.groups[0]?.attributes.get('status-message')?.values[0];
    if (typeof message === 'string') out.message = deviceText(message);
    return out;
  }
}

/** The request's attributes, then the document's parts as they come. */
function* withHead(head: Buffer, parts: Iterable<Uint8Array>): Generator<Uint8Array> {
  yield head;
  yield* parts;
}

export function isSuccess(status: number): boolean {
  return status >= Status.ok && status < 0x0100;
}
