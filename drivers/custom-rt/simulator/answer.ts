import type { Exchange, PrinterState } from './state.js';
import { type AnswerNode, four, responseXml, textNode } from './xml.js';

/**
 * The default answer (XML p.25) in the manual's node order: `lastIdCmd` once any `IdCmd` has been
 * sent (attribute the last ID, text the tag that carried it: p.25 "all subsequent responses will
 * always have the lastIdCmd node"), `responseBuf` when the command has data, `lastCommand` (the
 * tag of the last node processed), `lastRawCommand` after a directIO only (p.26), `dateTime`,
 * `printerStatus`, `fpStatus`, `receiptStep`, then `nClose`/`fiscalDoc` for a fiscal document
 * closed by this request (4 digits, the `zzzz-nnnn` of the printed number) or `nClose` for a Z,
 * and `notFiscalDoc` for a non-fiscal one.
 */
export function answerXml(p: PrinterState, ex: Exchange, success: boolean, status: number): string {
  const nodes: AnswerNode[] = [...ex.before, ...lastIdCmdNode(p)];
  if (ex.responseBuf !== undefined) nodes.push(textNode('responseBuf', ex.responseBuf));
  nodes.push(...ex.after, textNode('lastCommand', p.lastCommand));
  if (ex.rawCommand !== undefined) nodes.push(textNode('lastRawCommand', ex.rawCommand));
  nodes.push(
    textNode('dateTime', p.isoDateTime()),
    textNode('printerStatus', p.printerStatus()),
    textNode('fpStatus', p.fpStatus()),
    textNode('receiptStep', p.receiptStep()),
  );
  const z = ex.closed?.z ?? ex.nClose;
  if (z !== undefined) nodes.push(textNode('nClose', four(z)));
  if (ex.closed) nodes.push(textNode('fiscalDoc', four(ex.closed.doc)));
  if (ex.notFiscalDoc !== undefined) nodes.push(textNode('notFiscalDoc', four(ex.notFiscalDoc)));
  return responseXml(success, status, nodes);
}

export function lastIdCmdNode(p: PrinterState): AnswerNode[] {
  if (!p.lastIdCmd) return [];
  const { id, tag } = p.lastIdCmd;
  return [['lastIdCmd', `<lastIdCmd IdCmd="${id}">${tag}</lastIdCmd>`]];
}
