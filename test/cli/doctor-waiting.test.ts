import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeAgent } from '../../src/cli/doctor-devices.js';
import type { Config } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { messageRenderer } from '../../src/messages/render.js';
import { type RunningStatusServer, startStatusServer } from '../../src/status/start.js';
import { tempDir } from '../helpers/daemon.js';
import { FakeSource, NOW } from '../status/helpers/fake-source.js';

/**
 * `doctor` asks the running agent through its staff socket and says what waits and why in the
 * page's words (the Waiting section): the same counts as the page and `/metrics`.
 */

let server: RunningStatusServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('doctor: what waits in the running agent', () => {
  it('lists each queue and the undelivered results with why, in the configured language', async () => {
    const source = new FakeSource();
    source.snap.outbox = {
      pending: 3,
      oldestAt: NOW - 18 * 60_000,
      trouble: {
        since: NOW - 18 * 60_000,
        code: 'PLATFORM_UNREACHABLE',
        reason: 'outage',
        until: NOW + 120_000,
      },
    };
    const socket = join(tempDir('doctor-waiting'), 'staff.sock');
    server = await startStatusServer({
      source,
      log: silentLogger,
      listen: '127.0.0.1:0',
      staffSocket: socket,
    });
    const config = {
      status: { listen: `127.0.0.1:${server.port}`, staffSocket: socket, staffGroup: 'frontdesk-staff' },
    } as unknown as Config;

    const { check } = await probeAgent(config, 5000, messageRenderer('en', 'Europe/Rome'));
    expect(check.details).toEqual(
      expect.arrayContaining([
        'Fiscal printer: 2 commands queued — Paper low: replace the roll soon',
        '3 results and updates not yet delivered to the platform — platform unreachable since 13:42:00 (PLATFORM_UNREACHABLE); next try at 14:02:00',
      ]),
    );
    const italian = await probeAgent(config, 5000, messageRenderer('it', 'Europe/Rome'));
    expect(italian.check.details).toContain(
      '3 risultati e aggiornamenti non ancora consegnati alla piattaforma — piattaforma irraggiungibile dalle 13:42:00 (PLATFORM_UNREACHABLE); prossimo tentativo alle 14:02:00',
    );
  });
});
