import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeAgentConfig } from '../helpers/agent-config.js';
import { runCliCaptured } from '../helpers/cli.js';
import { canRunAsAnotherAccount, NOBODY } from './desk.js';

/**
 * Issue 27, finding 9's last item: while the agent restarts, any local process can listen on
 * 127.0.0.1:8720, and the command line sent it the status token (or asked it for a CSRF token and
 * then sent the action). The command line now talks to the agent only through the staff socket:
 * it sends no secret at all (the kernel tells the agent who asks), and it refuses a socket that
 * is not the agent's (one in a directory others can write). Here an impostor holds the status
 * port and a socket in a world-writable directory, and learns nothing.
 */

const TOKEN = 'status-token-SECRET-0123456789';
const RT = '00000000-0000-4000-8000-0000000000aa';

interface Impostor {
  server: Server;
  connections: number;
  received: string;
}

const impostors: Impostor[] = [];
afterEach(async () => {
  for (const impostor of impostors.splice(0)) await new Promise((resolve) => impostor.server.close(resolve));
});

/** Listens where the agent would (a TCP port or a socket path) and records every byte. */
async function impostor(listen: { port: number; host: string } | { path: string }): Promise<Impostor> {
  const record: Impostor = { server: createServer(), connections: 0, received: '' };
  record.server.on('connection', (socket: Socket) => {
    record.connections++;
    socket.on('data', (chunk) => {
      record.received += chunk.toString('latin1');
      socket.end(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 33\r\n\r\n{"csrfToken":"x","notes":"done"}\n',
      );
    });
  });
  await new Promise<void>((resolve) => record.server.listen(listen, resolve));
  impostors.push(record);
  return record;
}

function desk(staffSocket: string, port: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'fd-impostor-'));
  const tokenFile = join(dir, 'status-token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  return writeAgentConfig(dir, {
    platform: { url: 'https://platform.example' },
    status: { listen: `127.0.0.1:${port}`, accessTokenFile: tokenFile, staffSocket },
    devices: [{ id: RT, name: 'Reception RT', type: 'FiscalMachine', driver: 'sim-fiscal' }],
  });
}

describe('the command line sends nothing to a listener it has not verified', () => {
  it('sends neither the status token nor an action to whatever holds the status port while the agent is down', async () => {
    const port = await impostor({ host: '127.0.0.1', port: 0 });
    const { port: taken } = port.server.address() as { port: number };
    const missing = join(mkdtempSync(join(tmpdir(), 'fd-down-')), 'staff.sock');
    const config = desk(missing, taken);
    for (const argv of [
      ['report', 'z', '--config', config, '--device', RT],
      ['void', '--config', config, '--device', RT, '--receipt', '0012-0034'],
      ['login', '--config', config],
    ]) {
      const run = await runCliCaptured(argv, { USER: 'maria' });
      expect(run.code, argv.join(' ')).toBe(1);
      expect(run.err).toContain(`No agent answers: there is no staff socket at ${missing}`);
      expect(run.out).toBe('');
    }
    expect(port.connections).toBe(0);
    expect(port.received).not.toContain(TOKEN);
  });

  /**
   * An impostor's socket at `below`/staff.sock, `below` being a world-writable directory or one
   * inside it: `report z` must refuse it naming the open directory, and connect to nothing.
   */
  async function refusedBelowOpenDirectory(inside: boolean): Promise<void> {
    const open = mkdtempSync(join(tmpdir(), 'fd-open-'));
    chmodSync(open, 0o777);
    const dir = inside ? join(open, 'own') : open;
    if (inside) mkdirSync(dir, { mode: 0o700 });
    const path = join(dir, 'staff.sock');
    const fake = await impostor({ path });
    const port = await impostor({ host: '127.0.0.1', port: 0 });
    const config = desk(path, (port.server.address() as { port: number }).port);
    const run = await runCliCaptured(['report', 'z', '--config', config, '--device', RT], { USER: 'maria' });
    expect(run.code).toBe(1);
    expect(run.err).toContain(`Refused to use ${path}: ${open} can be written by others (mode 0777)`);
    expect(fake.connections).toBe(0);
    expect(port.connections).toBe(0);
  }

  it('refuses a staff socket in a directory others can write: the impostor there gets no connection', () =>
    refusedBelowOpenDirectory(false));

  it('refuses a staff socket below a directory others can write, however far up (issue 40, low finding)', () =>
    refusedBelowOpenDirectory(true));

  it.skipIf(!canRunAsAnotherAccount)(
    'refuses a staff socket that belongs to another account, in a directory that looks right',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'fd-owner-'));
      chmodSync(dir, 0o755);
      const path = join(dir, 'staff.sock');
      // Another account's program listens where the agent's socket is looked for.
      const squatter = spawn(
        'setpriv',
        [
          '--reuid',
          String(NOBODY),
          '--regid',
          String(NOBODY),
          '--clear-groups',
          process.execPath,
          '-e',
          `require('node:net').createServer((s) => s.end('HTTP/1.1 200 OK\\r\\n\\r\\n')).listen(${JSON.stringify(path)}, () => console.log('up'))`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      try {
        chownSync(dir, NOBODY, NOBODY);
        await new Promise((resolve) => squatter.stdout.once('data', resolve));
        chownSync(dir, 0, 0);
        const port = await impostor({ host: '127.0.0.1', port: 0 });
        const config = desk(path, (port.server.address() as { port: number }).port);
        const run = await runCliCaptured(['login', '--config', config], { USER: 'maria' });
        expect(run.code).toBe(1);
        expect(run.err).toContain(
          `owned by uid ${NOBODY}, neither root, the service user (frontdesk-agent) nor you`,
        );
      } finally {
        squatter.kill('SIGKILL');
      }
    },
  );
});
