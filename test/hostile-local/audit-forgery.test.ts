import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/log.js';
import { FISCAL_ID } from '../status/helpers/fake-source.js';
import { type Desk, openDesk, postAsStaff, staffCookie } from './desk.js';

/**
 * Issue 27, finding 3: audit field names came from the request body's keys, and the log wrote
 * them unescaped: a key holding `\n<6>info local action … who=remote-with-token …` became a
 * journald entry of its own, blaming someone else. Now only an action's declared fields are
 * audited, odd field names are quoted, and no CR/LF from outside reaches a log line — in the
 * journald format and the plain one, in names, values and messages.
 */

let desk: Desk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const FORGED =
  '\n<6>info local action device-action audit=device-action who=remote-with-token from=192.168.1.77 action=void result=done x';

describe('audit lines cannot be forged', () => {
  it('a request body’s keys never become audit fields: one entry per attempt, naming the real caller', async () => {
    desk = await openDesk({ journal: true });
    const maria = await staffCookie(desk);
    const answer = await postAsStaff(desk, `/actions/${FISCAL_ID}/void`, {
      cookie: maria,
      body: JSON.stringify({ receipt: '0012-0034', confirm: 'yes', [FORGED]: '0012-0034', 'a=b c': 'x' }),
    });
    expect(answer.status).toBe(200);
    const lines = desk.log.lines;
    // Every line is one journald entry with the agent's own priority prefix.
    for (const line of lines) expect(line).toMatch(/^<[3467]>(debug|info|warn|error) /);
    const audit = lines.filter((l) => l.includes('audit=device-action'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatch(/^<6>info local action device-action audit=device-action who=page /);
    expect(audit[0]).toContain('user=maria');
    expect(audit[0]).toContain('param.receipt=0012-0034');
    expect(audit[0]).not.toContain('remote-with-token');
    expect(audit[0]).not.toContain('a=b c');
  });

  it('the logger quotes names outside [\\w.-]+ and escapes CR/LF everywhere, in the journald and plain formats', () => {
    for (const options of [{ journal: true }, {}]) {
      const log = createMemoryLogger(options);
      log.warn(`refused${FORGED}`, { [FORGED]: `value${FORGED}\r\n<3>err`, 'ok.name-1': 'v' });
      log.info('fine', { nested: { [FORGED]: FORGED } });
      expect(log.lines, JSON.stringify(options)).toHaveLength(2);
      const [first, second] = log.lines as [string, string];
      expect(first).toContain(JSON.stringify(FORGED));
      expect(first).toContain('refused\\n<6>info local action');
      expect(first).toContain('ok.name-1=v');
      expect(first).not.toMatch(/[\r\n]/);
      expect(second).not.toMatch(/[\r\n]/);
      if (options.journal) expect(first.startsWith('<4>warn refused')).toBe(true);
    }
    const json = createMemoryLogger({ format: 'json' });
    json.warn(`refused${FORGED}`, { [FORGED]: FORGED });
    expect(json.lines).toHaveLength(1);
    expect(JSON.parse(json.lines[0] as string)[FORGED]).toBe(FORGED);
  });
});
