import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staffRequest } from '../../src/cli/staff-link.js';
import { ManualClock } from '../../src/clock.js';
import { createMemoryLogger } from '../../src/log.js';
import { type RunningStatusServer, startStatusServer } from '../../src/status/start.js';
import { type LocalPlatformAgent, startLocalPlatformAgent } from '../agent/local-platform.js';
import { eventually } from '../helpers/eventually.js';
import { FakeSource, NOW } from '../status/helpers/fake-source.js';

/**
 * Issue 40, finding M6: whoever held 127.0.0.1:8720 while the agent restarted kept the whole
 * agent down (`EADDRINUSE` → exit 1, restarted every 10 s), and served a look-alike login page
 * meanwhile. Now, without systemd, a busy port is a warning: the agent takes in and runs commands
 * and serves the staff socket, and the page takes its port as soon as it is free. Under systemd
 * the socket unit holds the port and the staff socket and passes them (sd_listen_fds(3)), so
 * nobody can take them between two runs; the agent serves on what it was given.
 */

let running: LocalPlatformAgent | undefined;
let server: RunningStatusServer | undefined;
const squatters: Server[] = [];
afterEach(async () => {
  await running?.close();
  await server?.close();
  running = undefined;
  server = undefined;
  for (const squatter of squatters.splice(0)) squatter.close();
});

/** Another program on the page's port, answering with a look-alike login page. */
async function squatter(): Promise<{ server: Server; port: number }> {
  const look = createServer((socket) =>
    socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n\r\n<form action="login">Log in</form>'),
  );
  await new Promise<void>((resolve) => look.listen(0, '127.0.0.1', resolve));
  squatters.push(look);
  return { server: look, port: (look.address() as { port: number }).port };
}

/**
 * Sockets made by another process and handed over, as systemd hands its own (the page's TCP
 * socket, then the staff socket): a plain node child binds them and sends the raw descriptors.
 */
async function socketsFromAnotherProcess(
  staffPath: string,
): Promise<{ port: number; fds: number[]; keep: unknown[] }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const net = require('node:net');
const tcp = net.createServer(); tcp.listen(0, '127.0.0.1', () => {
  const unix = net.createServer(); unix.listen(process.argv[1], () => {
    process.send({ port: tcp.address().port }, tcp._handle);
    process.send({}, unix._handle, () => process.exit(0));
  });
});`,
      staffPath,
    ],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const handles: Array<{ fd: number }> = [];
  let port = 0;
  child.on('message', (message: { port?: number }, handle: { fd: number }) => {
    if (message.port) port = message.port;
    handles.push(handle);
  });
  await new Promise((resolve) => child.on('exit', resolve));
  return { port, fds: handles.map((h) => h.fd), keep: handles };
}

describe('the status page’s port', () => {
  it('held by another program at start: the agent works on, and takes the port once it is free', async () => {
    const look = await squatter();
    let requests = 0;
    running = await startLocalPlatformAgent(
      (_operation, res) => {
        requests++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"Commands":[]}');
      },
      { listen: `127.0.0.1:${look.port}` },
    );
    const { log, clock, get } = running;
    expect(log.lines.join('\n')).toContain(
      `warn the status page cannot listen: another program holds its port; the agent works on and tries again component=status listen=127.0.0.1:${look.port}`,
    );
    // Intake runs, and staff reach the agent through the staff socket.
    await eventually('the agent to poll the platform', () => requests > 0);
    expect((await get('/healthz')).status).toBeLessThan(600);
    expect(log.lines.some((line) => line.includes('status page at'))).toBe(false);

    await new Promise((resolve) => look.server.close(resolve));
    await clock.advance(1000);
    await eventually('the page to take its port', () =>
      log.lines.some((line) => line.includes('status page at')),
    );
    const health = await fetch(`http://127.0.0.1:${look.port}/healthz`);
    expect(health.headers.get('content-type')).toContain('application/json');
  });

  it('passed by systemd: the agent serves on the sockets it was given, the page and the staff socket', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-passed-'));
    chmodSync(dir, 0o755);
    const staffPath = join(dir, 'staff.sock');
    const passed = await socketsFromAnotherProcess(staffPath);
    const log = createMemoryLogger();
    server = await startStatusServer({
      source: new FakeSource(),
      log,
      clock: new ManualClock(NOW),
      listen: `127.0.0.1:${passed.port}`,
      staffSocket: staffPath,
      passed: { status: passed.fds[0] as number, staff: passed.fds[1] as number },
    });
    expect((await fetch(`http://127.0.0.1:${passed.port}/healthz`)).status).toBe(200);
    const staff = await staffRequest(staffPath, 'frontdesk-staff', {
      method: 'GET',
      path: '/healthz',
      timeoutMs: 5000,
      maxBytes: 65536,
    });
    expect(staff.status).toBe(200);
    expect(log.lines.join('\n')).toContain(`staff socket listening (held by systemd) path=${staffPath}`);
    // The port stays taken: nobody else can bind it.
    const other = createServer();
    await expect(
      new Promise((resolve, reject) => {
        other.once('error', reject);
        other.listen(passed.port, '127.0.0.1', () => resolve(undefined));
      }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('passed in the wrong order: refused at start, naming the unit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-passed-'));
    const passed = await socketsFromAnotherProcess(join(dir, 'staff.sock'));
    const attempt = startStatusServer({
      source: new FakeSource(),
      log: createMemoryLogger(),
      listen: '127.0.0.1:8720',
      staffSocket: join(dir, 'staff.sock'),
      passed: { status: passed.fds[1] as number, staff: passed.fds[0] as number },
    });
    await expect(attempt).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('frontdesk-agent.socket must list 127.0.0.1:8720 first'),
    });
  });
});
