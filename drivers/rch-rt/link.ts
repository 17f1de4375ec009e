import type { Logger } from '../../src/log.js';
import type { HttpClient } from '../../src/transport/http.js';
import { type PostResult, postBody } from '../fiscal-it/rt/http.js';
import type { PrinterRead } from '../fiscal-it/rt/printer-read.js';
import { CANCEL, enqName, KEY, LAST_DOCUMENT, QUERY } from './commands.js';
import type { JournalKey, RchRtOptions } from './config.js';
import { type JournalDocument, readJournalDocument } from './journal.js';
import { parseAnswer, type RchAnswer, serviceRequest } from './service.js';

/**
 * The web service's one endpoint: `POST http(s)://host[:port]/service.cgi` (lyancoder/fiscal-printer
 * `lib/printer/RCH/xml-RCH-http.ts` `send`; Leahcim12/optyker-web `rch-optyker-connector.ps1`
 * `$PrinterUrl`). No source shows authentication; user and password are never taken from the address.
 */
export function rchEndpoint(address: string): URL {
  const url = new URL(address);
  url.pathname = '/service.cgi';
  url.search = '';
  url.hash = '';
  url.username = '';
  url.password = '';
  return url;
}

/** What one status read says: `<</?s` and `<</?7` (the Z count), with the answer's flags. */
export interface PrinterState {
  mode: string;
  /** No document is open (`idleState` 0). */
  idle: boolean;
  /** Closures made: `<</?7` (rch-driver-js-core `getTotalZeroingNumber`), else ECRStatus `lastZ`. */
  z?: number;
  /** The open day's last commercial document (ECRStatus `lastDocF`); absent on firmware that omits it. */
  doc?: number;
  paperEnd: boolean;
  coverOpen: boolean;
  printerError: boolean;
  /** As read, for the log and an unknown outcome's details. */
  read: string;
}

/** The journal's last document, or why it was not read. */
export type JournalRead =
  | { kind: 'read'; document: JournalDocument | 'empty' }
  | { kind: 'unreadable'; what: string }
  /** Not read: a document is open (the key cannot change then), or nothing asked for it. */
  | { kind: 'not-read'; why: 'document-open' | 'not-needed' };

export interface Evidence {
  state: PrinterState;
  journal: JournalRead;
}

type Asked =
  | { answered: false; reason: string }
  | { answered: true; answer: RchAnswer | undefined; httpStatus: number };

/** The exchanges with one RCH printer. One at a time (the kit's turn); never throws. */
export class RchLink {
  lastFailure: string | undefined;

  constructor(
    readonly address: string,
    private readonly options: Pick<
      RchRtOptions,
      'documentTimeoutMs' | 'reportTimeoutMs' | 'readTimeoutMs' | 'journalKey'
    >,
    private readonly http: HttpClient,
    private readonly log: Logger,
  ) {}

  post(commands: readonly string[], timeoutMs: number, signal?: AbortSignal, holdUntil?: Promise<unknown>) {
    return postBody(this.http, rchEndpoint(this.address), serviceRequest(commands), {
      timeoutMs,
      signal,
      holdUntil,
      contentType: 'application/xml',
    });
  }

  /** A document, one request; written only once `holdUntil` resolves (`PostOptions`). */
  sendDocument(commands: readonly string[], holdUntil?: Promise<unknown>): Promise<PostResult> {
    this.log.debug('rch document', { commands: commands.length });
    return this.post(commands, this.options.documentTimeoutMs, undefined, holdUntil);
  }

  sendReport(commands: readonly string[], signal?: AbortSignal): Promise<PostResult> {
    return this.post(commands, this.options.reportTimeoutMs, signal);
  }

  /** A short exchange; tells "nothing answered" (with why) from an answer (maybe unreadable). */
  async ask(commands: readonly string[], signal?: AbortSignal): Promise<Asked> {
    const result = await this.post(commands, this.options.readTimeoutMs, signal);
    if (result.kind !== 'answer') {
      this.lastFailure = result.reason;
      return { answered: false, reason: result.reason };
    }
    const answer = result.httpStatus === 200 ? parseAnswer(result.body) : undefined;
    this.lastFailure = answer ? undefined : `unreadable answer (HTTP ${result.httpStatus})`;
    return { answered: true, answer, httpStatus: result.httpStatus };
  }

  /** One query's value (`<</?m` …); undefined when it is not answered. */
  async query(query: string, signal?: AbortSignal): Promise<string | undefined> {
    const asked = await this.ask([query], signal);
    return asked.answered && asked.answer?.errorCode === 0 ? asked.answer.enq[enqName(query)] : undefined;
  }

  /** The printer's state: `<</?s` and `<</?7` in one request. */
  async readState(signal?: AbortSignal): Promise<PrinterRead<PrinterState>> {
    const asked = await this.ask([QUERY.status, QUERY.zCount], signal);
    if (!asked.answered) return { kind: 'away', reason: asked.reason };
    const a = asked.answer;
    if (!a) return { kind: 'unreadable', what: `status: HTTP ${asked.httpStatus}` };
    if (a.busy) return { kind: 'busy', code: 'busy' };
    if (!a.status) return { kind: 'unreadable', what: `status: errorCode ${a.errorCode}` };
    const zText = a.enq[enqName(QUERY.zCount)];
    const z = zText && /^\d{1,6}$/.test(zText) ? Number(zText) : a.status.lastZ;
    const state: PrinterState = {
      mode: a.status.mode,
      idle: a.status.idleState === 0,
      paperEnd: a.paperEnd,
      coverOpen: a.coverOpen,
      printerError: a.printerError,
      read: `mode ${a.status.mode}, idleState ${a.status.idleState}, Z ${z ?? '?'}, lastDocF ${a.status.lastDocF ?? '?'}`,
    };
    if (z !== undefined) state.z = z;
    if (a.status.lastDocF !== undefined) state.doc = a.status.lastDocF;
    return { kind: 'read', evidence: state };
  }

  /**
   * The journal's last document: the journal key (`=C3` or `=C4`, config.ts `JOURNAL_KEYS`), `=C453/$0`,
   * `=C1` back to REG, in one request; `=C1` alone again if the request stopped after the key.
   */
  async readJournal(signal?: AbortSignal): Promise<JournalRead> {
    const asked = await this.ask(
      [journalKeyCommand(this.options.journalKey), LAST_DOCUMENT, KEY.REG],
      signal,
    );
    const a = asked.answered ? asked.answer : undefined;
    if (a && a.lastCmd >= 1 && a.lastCmd < 3) await this.toRegister(signal);
    if (!asked.answered) return { kind: 'unreadable', what: `journal: ${asked.reason}` };
    if (!a) return { kind: 'unreadable', what: `journal: HTTP ${asked.httpStatus}` };
    if (a.busy || a.lastCmd < 2 || a.journal === undefined) {
      return { kind: 'unreadable', what: `journal: errorCode ${a.errorCode}, lastCmd ${a.lastCmd}` };
    }
    const document = readJournalDocument(a.journal);
    if (!document) return { kind: 'unreadable', what: 'journal: no single document in it' };
    return { kind: 'read', document };
  }

  /**
   * The state and, when `journal(state)` asks for it and no document is open, the journal's last
   * document (the key cannot change with a document open). Never throws.
   */
  async readEvidence(
    journal: (state: PrinterState) => boolean,
    signal?: AbortSignal,
  ): Promise<PrinterRead<Evidence>> {
    const read = await this.readState(signal);
    if (read.kind !== 'read') return read;
    const state = read.evidence;
    if (!journal(state))
      return { kind: 'read', evidence: { state, journal: { kind: 'not-read', why: 'not-needed' } } };
    if (!state.idle) {
      return { kind: 'read', evidence: { state, journal: { kind: 'not-read', why: 'document-open' } } };
    }
    return { kind: 'read', evidence: { state, journal: await this.readJournal(signal) } };
  }

  /** `=C1`: back to the REG key (sales need it). */
  async toRegister(signal?: AbortSignal): Promise<boolean> {
    const asked = await this.ask([KEY.REG], signal);
    return asked.answered && asked.answer?.errorCode === 0 && asked.answer.lastCmd === 1;
  }

  /** `=a`: cancels the open document. Best effort. */
  async cancelOpen(): Promise<boolean> {
    const asked = await this.ask([CANCEL]);
    const ok = asked.answered && asked.answer?.errorCode === 0 && asked.answer.lastCmd === 1;
    if (!ok) this.log.warn('cancelling the open document failed', { reason: this.lastFailure });
    return ok;
  }
}

function journalKeyCommand(key: JournalKey): string {
  return key === 'PRG' ? KEY.PRG : KEY.Z;
}
