import { describe, expect, it } from 'vitest';
import { rtKitWords } from '../../../drivers/fiscal-it/rt/messages.js';
import { decide, type Witness } from '../../../drivers/fiscal-it/rt/witnesses.js';
import { english } from '../../../src/messages/render.js';

/**
 * The kit's one decision (issue 42 item 2): printed or not printed only when the witnesses that
 * speak agree; an unreadable witness, a disagreement or silence is unknown. The witnesses here are
 * shaped as a family without a request id would read them (issue 43, RCH: `lastCmd`, the Z and
 * document counters, a marker line in the electronic journal's last document): the kit decides
 * for them without knowing the family.
 */
const words = { noWitness: () => rtKitWords.noWitness(), disagree: () => rtKitWords.witnessesDisagree() };
const w = (name: string, verdict: Witness['verdict']): Witness => ({ name, verdict, read: `${name} read` });

describe('the decision from witnesses', () => {
  it.each([
    ['all three agree printed', ['printed', 'printed', 'printed'], 'printed'],
    ['all three agree not printed', ['not-printed', 'not-printed', 'not-printed'], 'not-printed'],
    ['the journal is silent, the counters agree', ['printed', 'printed', 'silent'], 'printed'],
    ['the command count says printed, the journal not', ['printed', 'printed', 'not-printed'], 'unknown'],
    ['one witness cannot be read', ['printed', 'unknown', 'printed'], 'unknown'],
    ['every witness is silent', ['silent', 'silent', 'silent'], 'unknown'],
  ] as const)('%s → %s', (_what, verdicts, outcome) => {
    const witnesses = verdicts.map((v, i) => w(['lastCmd', 'counters', 'journal marker'][i] as string, v));
    expect(decide(witnesses, { doc: 12 }, words).outcome).toBe(outcome);
  });

  it('hands back the document only when printed, and says why it cannot tell', () => {
    expect(decide([w('lastCmd', 'printed')], { doc: 12 }, words)).toMatchObject({ document: { doc: 12 } });
    const unreadable: Witness = { ...w('1017', 'unknown'), reason: rtKitWords.openNotClosed() };
    const decision = decide([w('lastIdCmd', 'silent'), unreadable], undefined, words);
    expect(decision.outcome === 'unknown' && english(decision.reason)).toMatch(/still open/);
    const disagree = decide([w('a', 'printed'), w('b', 'not-printed')], undefined, words);
    expect(disagree.outcome === 'unknown' && english(disagree.reason)).toMatch(/does not agree/);
  });
});
