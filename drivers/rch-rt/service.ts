import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { escapeXml } from '../fiscal-it/rt/xml-text.js';

/**
 * The RCH web service's XML, both ways.
 *
 * A request is `<Service>` holding one `<cmd>` per native command, in order (lyancoder/fiscal-printer
 * `lib/printer/RCH/xml-RCH-http.ts` `convertCommandToXmlDoc`; rch-driver-js-core `src/Core.ts`
 * `header()`/`cmd()`), each command escaped as XML text (Leahcim12/optyker-web
 * `rch-connector/rch-optyker-connector.ps1` `Build-RchXml`: a query's `<<` travels as `&lt;&lt;`).
 *
 * An answer is `<Service><Request>` with six counters (lyancoder `parseResponse`; optyker
 * `Parse-Rch` refuses an answer missing any of them): `errorCode` (0 is success), `printerError`,
 * `paperEnd`, `coverOpen`, `lastCmd` (how many of the request's commands the printer carried out)
 * and `busy` (1: nothing was carried out, send it again — RCH "Manuale Web Service Print! F" V5
 * R03/2019 §3). After it come what the commands returned: `<ECRStatus>` for `<</?s` (optyker reads
 * it under `Service` or `Service/Request`), `<Enq><name/><value/></Enq>` for the other queries
 * (optyker `Read-RchValue`), `<EJ>` with the journal's text for `=C453/$0` (optyker
 * `Parse-ReceiptJournal`, "Web Service V5 section 8.5: EJ is literal journal text").
 */

/** `<</?s`'s fields. Only `mode` and `idleState` are in every firmware's answer (README, "A first printer"). */
export interface EcrStatus {
  /** The key: REG, X, Z, PRG, SERVICE (optyker `Assert-IdleRegister` accepts `REG (OP n)` too). */
  mode: string;
  /** 0 idle; otherwise a document is open (rch-driver-js `src/printer/ReceiptStatus.ts`). */
  idleState: number;
  /** Closures made (lyancoder README: a reference's Z is `lastZ + 1`). */
  lastZ?: number;
  /** The last commercial document's number within the open day (lyancoder README). */
  lastDocF?: number;
  lastDocNF?: number;
}

export interface RchAnswer {
  errorCode: number;
  lastCmd: number;
  busy: boolean;
  paperEnd: boolean;
  coverOpen: boolean;
  printerError: boolean;
  status?: EcrStatus;
  /** Query answers by name (`m`, `7`, `i/*3` …). */
  enq: Record<string, string>;
  /** The journal's text, when the request read it. */
  journal?: string;
}

export function serviceRequest(commands: readonly string[]): string {
  const cmds = commands.map((c) => `<cmd>${escapeXml(c)}</cmd>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Service>${cmds}</Service>`;
}

const parser = new XMLParser({
  parseTagValue: false,
  trimValues: false,
  ignoreAttributes: true,
  isArray: (name) => name === 'Enq',
});

type Node = Record<string, unknown>;

const counter = (value: unknown): number | undefined => {
  const text = typeof value === 'string' ? value.trim() : undefined;
  return text && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
};

function statusOf(node: unknown): EcrStatus | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const s = node as Node;
  const idleState = counter(s.idleState);
  if (typeof s.mode !== 'string' || idleState === undefined) return undefined;
  const out: EcrStatus = { mode: s.mode.trim(), idleState };
  for (const key of ['lastZ', 'lastDocF', 'lastDocNF'] as const) {
    const value = counter(s[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** The answer in `body`; undefined when it is not a `<Service><Request>` with its six counters. */
export function parseAnswer(body: string): RchAnswer | undefined {
  if (XMLValidator.validate(body) !== true) return undefined;
  const service = (parser.parse(body) as Node).Service as Node | undefined;
  const request = service?.Request as Node | undefined;
  if (!service || typeof request !== 'object' || request === null) return undefined;
  const n = (key: string) => counter(request[key]);
  const [errorCode, lastCmd, busy, paperEnd, coverOpen, printerError] = [
    'errorCode',
    'lastCmd',
    'busy',
    'paperEnd',
    'coverOpen',
    'printerError',
  ].map(n);
  if ([errorCode, lastCmd, busy, paperEnd, coverOpen, printerError].some((v) => v === undefined)) {
    return undefined;
  }
  const answer: RchAnswer = {
    errorCode: errorCode as number,
    lastCmd: lastCmd as number,
    busy: busy !== 0,
    paperEnd: paperEnd !== 0,
    coverOpen: coverOpen !== 0,
    printerError: printerError !== 0,
    enq: {},
  };
  const status = statusOf(service.ECRStatus ?? request.ECRStatus);
  if (status) answer.status = status;
  for (const e of (service.Enq ?? []) as Node[]) {
    if (typeof e.name === 'string' && typeof e.value === 'string') answer.enq[e.name.trim()] = e.value.trim();
  }
  if (service.EJ !== undefined) answer.journal = typeof service.EJ === 'string' ? service.EJ : '';
  return answer;
}
