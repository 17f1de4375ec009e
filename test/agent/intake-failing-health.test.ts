import { afterEach, describe, expect, it } from 'vitest';
import { intakeReason } from '../../src/agent/status-source.js';
import { textMessage } from '../../src/messages/message.js';
import { english } from '../../src/messages/render.js';
import { LOCAL_TOKENS, type LocalPlatformAgent, startLocalPlatformAgent } from './local-platform.js';

/**
 * Issue 13.3: when every discovery round keeps failing, new commands are not taken in, and that
 * must not hide behind a healthy `/healthz`. Here the platform answers `commands/getAllActive`
 * with something the agent cannot read (a captive portal's page) while it answers the rest: after
 * 3 minutes and two failed rounds `/healthz` is 503 with the reason, and the page shows it; one
 * round that completes clears it.
 */

const ROUND_MS = 60_000;

describe('an agent whose intake keeps failing', () => {
  let running: LocalPlatformAgent | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('turns /healthz 503 with the reason after 3 minutes, shows it on the page, and recovers', async () => {
    let portal = true;
    let listings = 0;
    running = await startLocalPlatformAgent(
      (operation, res) => {
        if (operation === 'commands/getAllActive') listings++;
        if (operation === 'commands/getAllActive' && portal) {
          res.writeHead(200, { 'Content-Type': 'text/html' });
          res.end('<html><body>Welcome to Hotel Wi-Fi — please log in</body></html>');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"Commands":[]}');
      },
      { poll: { intervalMs: ROUND_MS, safetyNetMs: ROUND_MS } },
    );
    const { agent, clock, log, get, stepUntil } = running;
    const intakeReasons = () =>
      running?.healthReasons((r) => r.startsWith('new commands are not taken in')) ?? [];
    const failing = () => agent.source.snapshot().platform.intakeFailing;

    await stepUntil(() => failing() !== undefined, 10 * ROUND_MS);
    const since = failing()?.since ?? 0;
    expect(since).toBeGreaterThan(0);
    // Two failed rounds, but not yet three minutes: still healthy as far as intake goes.
    await stepUntil(() => (failing()?.failures ?? 0) >= 2, 10 * ROUND_MS);
    await stepUntil(() => clock.now() - since >= 3 * 60_000 - 5000, 10 * ROUND_MS);
    expect(await intakeReasons()).toEqual([]);
    await stepUntil(() => clock.now() - since >= 3 * 60_000, 10_000);
    const reasons = await intakeReasons();
    expect(reasons).toEqual([
      expect.stringMatching(
        /^new commands are not taken in: every catch-up has failed for 3 min \(\d+ times; RESPONSE_INVALID: commands\/getAllActive answered with a body that is not JSON\)$/,
      ),
    ]);
    expect((await get('/healthz')).status).toBe(503);
    expect((await get('/')).text).toContain('new commands are not taken in: every catch-up has failed');
    expect(JSON.parse((await get('/status.json')).text).platform.intakeFailing).toMatchObject({
      round: 'catch-up',
      since,
      code: 'RESPONSE_INVALID',
    });

    portal = false;
    const before = listings;
    await stepUntil(() => listings > before && failing() === undefined, 10 * ROUND_MS);
    expect(await intakeReasons()).toEqual([]);
    expect(log.lines.join('\n')).not.toContain(LOCAL_TOKENS.accessToken);
  });
});

describe('intakeReason', () => {
  const since = 1_000_000;
  const failing = {
    round: 'fiscal poll',
    since,
    failures: 3,
    code: 'JOURNAL_ERROR',
    message: 'disk I/O error',
  };
  it('needs two failures and three minutes', () => {
    expect(intakeReason(undefined, since + 600_000)).toBeUndefined();
    expect(intakeReason({ ...failing, failures: 1 }, since + 600_000)).toBeUndefined();
    expect(intakeReason(failing, since + 179_999)).toBeUndefined();
    expect(english(intakeReason(failing, since + 180_000) ?? textMessage(''))).toBe(
      'new commands are not taken in: every fiscal poll has failed for 3 min (3 times; JOURNAL_ERROR: disk I/O error)',
    );
  });
  it('leaves out a message that may hold a secret', () => {
    expect(
      english(intakeReason({ ...failing, message: 'bad token abc' }, since + 180_000) ?? textMessage('')),
    ).toMatch(/\(3 times; JOURNAL_ERROR\)$/);
  });
});
