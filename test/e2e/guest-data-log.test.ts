import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { createDaemon, type DaemonHandle, tempDir } from '../helpers/daemon.js';
import { agentConfig, createMix, e2eScenario, TOKEN_ENV } from './harness.js';
import { waitForAll } from './verify.js';

/**
 * Issue 27, finding 9 ("the support bundle misses names of closed commands"): the bundle redacts
 * the personal data the journal still holds, but a closed command's document is erased from the
 * journal (finding 6), so its guest's name can no longer be learnt there. The bundle's log part
 * is therefore safe only if the agent never writes a guest's name, e-mail or phone number to its
 * log in the first place. This runs the real daemon at debug level (the most it ever says) through
 * a mix of receipts, refunds, key and print commands for the scenario's guests and reads every
 * line it printed. The key drivers' own frames are covered by `hostile-local/encoder-log.test.ts`.
 */
describe('the agent never logs a guest', () => {
  let sim: PlatformSimulator;
  let daemon: DaemonHandle | undefined;

  beforeAll(async () => {
    sim = await startPlatformSimulator({ scenario: e2eScenario() });
  });
  afterAll(async () => {
    await daemon?.stop();
    await sim.close();
  });

  it('prints no guest name, e-mail or phone number at debug level while commands come and close', async () => {
    const dir = tempDir('e2e-guest-log');
    daemon = createDaemon({
      config: {
        ...agentConfig(sim, dir),
        log: { level: 'debug' },
        journal: { path: join(dir, 'journal.db') },
      },
      env: TOKEN_ENV,
    });
    await daemon.start();
    const planned = createMix(sim, 80);
    await waitForAll(sim, planned);
    expect(await daemon.stop()).toBe(0);

    const personal = new Set<string>();
    for (const { guest } of sim.world.reservations) {
      for (const value of [
        guest.firstName,
        guest.lastName,
        guest.normalizedFirstName,
        guest.normalizedLastName,
        guest.email,
        guest.telephone,
      ]) {
        // Very short given names ("Al") would match ordinary words; three letters is the bundle's own floor.
        if (value && value.trim().length >= 3) personal.add(value.trim());
      }
    }
    expect(personal.size).toBeGreaterThan(20);
    // The agent was given these people: the commands it read carried their names.
    const served = JSON.stringify(planned.map((p) => sim.command(p.view.id)?.wire));
    expect([...personal].filter((value) => served.includes(value)).length).toBeGreaterThan(5);
    const text = daemon.lines.join('\n');
    // The run did log at debug level: the check below reads a log that said things.
    expect(daemon.lines.some((line) => /debug/i.test(line))).toBe(true);
    const found = [...personal].filter((value) =>
      new RegExp(
        `(?<![\\p{L}\\p{N}])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
        'iu',
      ).test(text),
    );
    expect(found).toEqual([]);
  }, 180_000);
});
