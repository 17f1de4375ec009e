import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../app/cli.js';
import { driverRegistry } from '../../drivers/index.js';
import { createAgent } from '../../src/agent/index.js';
import { parseConfig } from '../../src/config.js';
import { createMemoryLogger } from '../../src/log.js';
import {
  DEFAULT_STAFF_SOCKET,
  prepareStaffDirectory,
  staffSocketPath,
} from '../../src/status/sockets/staff-socket.js';
import { writeAgentConfig } from '../helpers/agent-config.js';
import { captureCli, runCliCaptured } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { inCi } from '../helpers/tools.js';

/**
 * Issue 41, item 2: run as root from a shell with a configuration without `status.staffSocket`,
 * `frontdesk-agent run` opened no staff socket and said nothing, while `report x` looked in
 * /run/frontdesk-agent/staff.sock and told staff to start the agent that was running. Now both
 * follow one rule (`staffSocketPath`): the configured path, else /run/frontdesk-agent/staff.sock,
 * which an agent started by hand as root makes; without that right it says in its log why it has
 * none, and the command line says what it looked for and why it found nothing.
 */

const asRoot = process.getuid?.() === 0;
const RT = 'd117866d-78de-4459-9077-42d7ea0120e3';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('one rule for the staff socket', () => {
  it('is the configured path, else /run/frontdesk-agent/staff.sock, for the agent and the command line', () => {
    expect(staffSocketPath(undefined)).toBe('/run/frontdesk-agent/staff.sock');
    expect(staffSocketPath('/srv/desk/staff.sock')).toBe('/srv/desk/staff.sock');
    expect(prepareStaffDirectory('/proc/frontdesk-agent/staff.sock', 0)).toMatch(
      /^its directory \/proc\/frontdesk-agent does not exist and cannot be made \(\w+: only root, or systemd's frontdesk-agent\.socket, can make it\)$/,
    );
    const open = mkdtempSync(join(tmpdir(), 'fd-rule-'));
    dirs.push(open);
    chmodSync(open, 0o777);
    expect(prepareStaffDirectory(join(open, 'staff.sock'), 0)).toBe(
      `${open} can be written by others (mode 0777): anyone could put a socket there`,
    );
  });

  it('the agent logs where its staff socket is, or exactly why it has none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-rule-'));
    dirs.push(dir);
    const config = parseConfig({
      version: 1,
      platform: { url: 'http://127.0.0.1:8730' },
      simulator: { enabled: true, port: 0 },
      journal: { path: ':memory:' },
      status: { listen: '127.0.0.1:0' },
    });
    for (const staffSocket of [join(dir, 'staff.sock'), '/proc/frontdesk-agent/staff.sock']) {
      const log = createMemoryLogger();
      const agent = createAgent(config, { registry: driverRegistry, log, staffSocket });
      await agent.start();
      await agent.stop(0);
      const said = log.lines.filter((line) => /staff socket listening|no staff socket/.test(line));
      expect(said, staffSocket).toHaveLength(1);
      if (staffSocket.startsWith('/proc'))
        expect(said[0]).toMatch(
          /warn no staff socket: the command line \(login, report, void\) cannot reach this agent .*path=\/proc\/frontdesk-agent\/staff\.sock reason="its directory \/proc\/frontdesk-agent does not exist and cannot be made .*" fix=/,
        );
      else expect(said[0]).toContain(`staff socket listening component=status path=${staffSocket}`);
    }
  });

  it.runIf(asRoot || inCi)(
    'an agent started by hand without status.staffSocket answers `report x` from the command line',
    async () => {
      const made = !existsSync('/run/frontdesk-agent');
      const dir = mkdtempSync(join(tmpdir(), 'fd-rule-'));
      dirs.push(dir);
      const config = writeAgentConfig(dir, {
        platform: { url: 'http://127.0.0.1:8730' },
        simulator: { enabled: true, port: 0, devices: true },
        status: { listen: '127.0.0.1:0' },
        devices: [
          {
            id: RT,
            name: 'Reception RT',
            type: 'FiscalMachine',
            driver: 'epson-fpmate',
            options: { url: `http://127.0.0.1:${await freePort()}` },
          },
        ],
      });
      let stop: (() => void) | undefined;
      const agent = captureCli({});
      agent.io.onSignal = (handler) => {
        stop = () => handler('SIGTERM');
        return () => undefined;
      };
      const running = runCli(['run', '--config', config], agent.io);
      try {
        await eventually('the page to listen', () => agent.out().includes('Status page: open'));
        expect(existsSync(DEFAULT_STAFF_SOCKET)).toBe(true);
        const x = await runCliCaptured(['report', 'x', '--config', config, '--device', 'Reception RT']);
        expect(x.err).toMatch(/audit=device-action who=command-line .*result=done/);
        // Issue 41, item 4: the login greeting follows the configured locale, not the terminal's.
        const login = await runCliCaptured(['login', '--config', config], { LANG: 'it_IT.UTF-8' });
        expect(login.err).toContain('Open this address in the browser on this PC within 5 minutes');
        expect(x).toMatchObject({
          code: 0,
          out: expect.stringMatching(/^X report .* printed on RT 99MEY\d+\n$/),
        });
      } finally {
        stop?.();
        expect(await running).toBe(0);
        if (made) rmSync('/run/frontdesk-agent', { recursive: true, force: true });
      }
      // Stopped: the command line says what it looked for and why it found nothing there.
      const absent = await runCliCaptured(['report', 'x', '--config', config, '--device', RT]);
      expect(absent.code).toBe(1);
      expect(absent.err).toContain(`No agent answers: there is no staff socket at ${DEFAULT_STAFF_SOCKET}`);
    },
  );
});
