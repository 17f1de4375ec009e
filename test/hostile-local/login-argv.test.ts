import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createMemoryLogger } from '../../src/log.js';
import { StaffSessions } from '../../src/status/callers/staff-sessions.js';
import { buildStatusServer, serveOnStaffSocket } from '../../src/status/server.js';
import type { StaffSocket } from '../../src/status/sockets/staff-socket.js';
import { writeAgentConfig } from '../helpers/agent-config.js';
import { runCliCaptured } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { FakeSource, NOW } from '../status/helpers/fake-source.js';

/**
 * Issue 40, finding M3, the other half: the one-time login address was readable in
 * `/proc/<pid>/cmdline` of `xdg-open` and the browser when staff opened it that way. The code is
 * now bound to its owner's account (session-theft.test.ts); `frontdesk-agent login --open` also
 * keeps it off every command line: the opener is given the path of a page only this user can read,
 * and the page leads the browser on.
 */

let app: FastifyInstance | undefined;
let staff: StaffSocket | undefined;
afterEach(async () => {
  await staff?.close();
  await app?.close();
});

describe('frontdesk-agent login --open', () => {
  it('hands the browser a private page’s path, never the address', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-open-'));
    app = buildStatusServer({
      source: new FakeSource(),
      log: createMemoryLogger(),
      clock: new ManualClock(NOW),
      sessions: new StaffSessions(),
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    staff = await serveOnStaffSocket(app, {
      path: join(dir, 'staff.sock'),
      group: 'frontdesk-staff',
      log: createMemoryLogger(),
    });
    const config = writeAgentConfig(dir, {
      platform: { url: 'https://platform.example' },
      status: { staffSocket: join(dir, 'staff.sock') },
    });
    // A stand-in for xdg-open: it notes what it was given, as /proc/<pid>/cmdline would show it.
    const bin = mkdtempSync(join(tmpdir(), 'fd-opener-'));
    const seen = join(bin, 'argv');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" > ${JSON.stringify(seen)}\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const runtime = mkdtempSync(join(tmpdir(), 'fd-runtime-'));
    const run = await runCliCaptured(['login', '--open', '--config', config], {
      PATH: `${bin}:${process.env.PATH}`,
      XDG_RUNTIME_DIR: runtime,
    });
    expect(run.code).toBe(0);
    expect(run.out).toBe('');
    expect(run.err).toContain('The status page opens in the browser on this PC');
    await eventually('the opener to run', () => {
      try {
        return readFileSync(seen, 'utf8').length > 0;
      } catch {
        return false;
      }
    });
    const argv = readFileSync(seen, 'utf8').trim();
    expect(argv).toMatch(new RegExp(`^file://${runtime}/frontdesk-login-\\w+/login\\.html$`));
    expect(argv).not.toContain('token');
    const page = fileURLToPath(argv);
    expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(statSync(join(page, '..')).mode & 0o777).toBe(0o700);
    const address = /url=([^"]+)"/.exec(readFileSync(page, 'utf8'))?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\?token=[\w-]{43}$/);
    // The page leads this user's browser in, once.
    expect((await fetch(address, { redirect: 'manual' })).status).toBe(303);
  });
});
