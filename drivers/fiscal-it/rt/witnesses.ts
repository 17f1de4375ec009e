import type { Message } from '../../../src/messages/message.js';

/**
 * The decision, once, for every RT family: was a document the agent sent printed?
 *
 * A family reads its printer's **witnesses** — each a fact the printer keeps that speaks to the
 * document: Epson's last document against the baseline (`directIO 1387`), Custom's last `IdCmd`
 * taken and its counters (`getInfo`, `directIO 1017`), RCH's command count (`lastCmd`), its Z and
 * document counters and a marker line in the electronic journal's last document. Each witness
 * gives one verdict:
 * - `printed` / `not-printed`: what it shows, read and understood;
 * - `silent`: it has nothing to say, for a documented reason (a printer that restarted forgets
 *   the last `IdCmd`: XML protocol manual rev 2.00 p.25 keeps it in RAM only);
 * - `unknown`: it was asked and could not be read, or was read and cannot tell (another
 *   document came in between, the total differs, the counters went backwards).
 *
 * The rule (issue 42, "The decision, once"): printed or not printed **only when the witnesses
 * that speak agree** and none is `unknown`; at least one must speak. Anything else is unknown:
 * the command ends in Error "check the printer" with what was read, and the document is never
 * sent again by the agent.
 */
export type WitnessVerdict = 'printed' | 'not-printed' | 'silent' | 'unknown';

export interface Witness {
  /** Short technical name, for the log and the error's details: `lastIdCmd`, `1017`, `lastCmd`. */
  name: string;
  verdict: WitnessVerdict;
  /** What was read, as the printer said it (for the log and details; never a token). */
  read: string;
  /** Why the witness cannot tell, in staff's words (verdict `unknown`). */
  reason?: Message;
}

/** What the witnesses decide; `printed` carries the family's reading of the document, if any. */
export type WitnessDecision<D> =
  | { outcome: 'printed'; document: D | undefined; witnesses: readonly Witness[] }
  | { outcome: 'not-printed'; witnesses: readonly Witness[] }
  | { outcome: 'unknown'; reason: Message; witnesses: readonly Witness[] };

/** The family's sentences for the two ways witnesses can fail to decide. */
export interface DecisionWords {
  /** No witness could speak (all silent, or none read). */
  noWitness(): Message;
  /** Two witnesses said opposite things. */
  disagree(): Message;
}

/**
 * Decides from `witnesses` (see above). `document` is the printed document's reading when a
 * witness identified it (numbers, total); it is handed back only with `printed`.
 */
export function decide<D>(
  witnesses: readonly Witness[],
  document: D | undefined,
  words: DecisionWords,
): WitnessDecision<D> {
  const unknown = witnesses.find((w) => w.verdict === 'unknown');
  if (unknown) return { outcome: 'unknown', reason: unknown.reason ?? words.noWitness(), witnesses };
  const printed = witnesses.some((w) => w.verdict === 'printed');
  const notPrinted = witnesses.some((w) => w.verdict === 'not-printed');
  if (printed && notPrinted) return { outcome: 'unknown', reason: words.disagree(), witnesses };
  if (printed) return { outcome: 'printed', document, witnesses };
  if (notPrinted) return { outcome: 'not-printed', witnesses };
  return { outcome: 'unknown', reason: words.noWitness(), witnesses };
}

/** The witnesses as one line for a log or an error's details: `lastIdCmd=C12E:printed; 1017=…`. */
export function witnessLine(witnesses: readonly Witness[]): string {
  return witnesses.map((w) => `${w.name}=${w.read}:${w.verdict}`).join('; ') || 'none read';
}
