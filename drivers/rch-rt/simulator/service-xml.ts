import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * The web service's XML, both ways. A request is `<Service>` holding one `<cmd>` per native
 * command, in order (lyancoder/fiscal-printer `lib/printer/RCH/xml-RCH-http.ts`
 * `convertCommandToXmlDoc`; rch-driver-js-core `src/Core.ts` `header()`/`cmd()`; optyker-web
 * `rch-connector/rch-optyker-connector.ps1` `Build-RchXml`, which escapes `<` as `&lt;`).
 *
 * An answer is `<Service><Request>` with `errorCode`, `printerError`, `paperEnd`, `coverOpen`,
 * `lastCmd` and `busy` (lyancoder `parseResponse`'s documented shape; optyker `Parse-Rch` requires
 * all six), followed by what the commands returned: `<ECRStatus>` with `mode`, `idleState`,
 * `lastZ`, `lastDocF`, `lastDocNF` for `<</?s` (optyker `Verifica-Scontrino-Sospeso.ps1`
 * `Get-StatusEvidence` and its test fixture `tests/rch-pending-read.ps1`), `<Enq><name>…</name>
 * <value>…</value></Enq>` for the other queries (optyker `Read-RchValue`, and the real `<</?f`,
 * `<</?m` answers quoted in `supabase/FISCAL-CONNECTION.md`), `<EJ>` with the journal's literal
 * text for `=C453/$0` (optyker `Parse-ReceiptJournal`, "RCH Web Service V5 R03/2019 section 8.5").
 */

export interface AnswerFlags {
  errorCode: number;
  printerError: boolean;
  paperEnd: boolean;
  coverOpen: boolean;
  lastCmd: number;
  busy: boolean;
}

export type AnswerPart =
  | {
      kind: 'status';
      mode: string;
      idleState: number;
      lastZ: number;
      lastDocF: number;
      lastDocNF: number;
    }
  | { kind: 'enq'; name: string; value: string }
  | { kind: 'journal'; text: string };

const parser = new XMLParser({
  parseTagValue: false,
  trimValues: false,
  ignoreAttributes: true,
  isArray: (name) => name === 'cmd',
});

/** The commands of a request body, in order; undefined when it is not a `<Service>` of `<cmd>`s. */
export function parseServiceRequest(body: string): string[] | undefined {
  if (XMLValidator.validate(body) !== true) return undefined;
  const doc = parser.parse(body) as Record<string, unknown>;
  const service = doc.Service;
  if (typeof service !== 'object' || service === null) return undefined;
  const cmds = (service as Record<string, unknown>).cmd;
  if (!Array.isArray(cmds) || cmds.length === 0) return undefined;
  if (!cmds.every((c): c is string => typeof c === 'string')) return undefined;
  return cmds.map((c) => c.trim());
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const bit = (on: boolean) => (on ? '1' : '0');

function partXml(part: AnswerPart): string {
  switch (part.kind) {
    case 'status':
      return (
        `<ECRStatus><mode>${escapeXml(part.mode)}</mode><idleState>${part.idleState}</idleState>` +
        `<lastZ>${part.lastZ}</lastZ><lastDocF>${part.lastDocF}</lastDocF>` +
        `<lastDocNF>${part.lastDocNF}</lastDocNF></ECRStatus>`
      );
    case 'enq':
      return `<Enq><name>${escapeXml(part.name)}</name><value>${escapeXml(part.value)}</value></Enq>`;
    case 'journal':
      return `<EJ>${escapeXml(part.text)}</EJ>`;
  }
}

/** The answer document for a request. */
export function answerXml(flags: AnswerFlags, parts: readonly AnswerPart[] = []): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<Service>' +
    `<Request><errorCode>${flags.errorCode}</errorCode><printerError>${bit(flags.printerError)}</printerError>` +
    `<paperEnd>${bit(flags.paperEnd)}</paperEnd><coverOpen>${bit(flags.coverOpen)}</coverOpen>` +
    `<lastCmd>${flags.lastCmd}</lastCmd><busy>${bit(flags.busy)}</busy></Request>` +
    parts.map(partXml).join('') +
    '</Service>\n'
  );
}
