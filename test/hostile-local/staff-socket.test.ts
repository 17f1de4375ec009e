import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type StaffAnswer, staffRequest } from '../../src/cli/staff-link.js';
import { ManualClock } from '../../src/clock.js';
import { createMemoryLogger } from '../../src/log.js';
import { StaffSessions } from '../../src/status/callers/staff-sessions.js';
import { buildStatusServer, serveOnStaffSocket } from '../../src/status/server.js';
import { PERL, parsePeerLine } from '../../src/status/sockets/peer-credentials.js';
import { groupId, isStaff, type StaffSocket } from '../../src/status/sockets/staff-socket.js';
import { inCi, requireTool } from '../helpers/tools.js';
import { ActionSource } from '../status/helpers/action-source.js';
import { FISCAL_ID, NOW } from '../status/helpers/fake-source.js';

/**
 * Issue 27, finding 1, the command line's half: `report`, `void` and `login` reach the agent
 * through the staff socket, where the kernel names the caller (SO_PEERCRED and SO_PEERGROUPS,
 * read through Perl: src/status/sockets/peer-credentials.ts). A process of another Unix user that is not
 * in the staff group cannot connect (mode 0660, the staff group), and even through a socket left
 * open to everyone its requests are refused, by uid, before anything runs. The audit line names
 * the uid the kernel gave.
 */

const perl = requireTool(PERL, 'reads the staff socket peer’s credentials from the kernel');
const asRoot = process.getuid?.() === 0;
/** Other users' processes need root to start; CI runs as root, so there it must run. */
const crossUser = asRoot || inCi;
const STAFF_GID = 4242;
const NOBODY = 65534;

interface Rig {
  app: FastifyInstance;
  staff: StaffSocket;
  path: string;
  log: ReturnType<typeof createMemoryLogger>;
  /** A request through the staff socket as the command line makes it (staff-link.ts), from this process. */
  ask(method: 'GET' | 'POST', url: string, json?: unknown): Promise<StaffAnswer>;
}

const rigs: Rig[] = [];
afterEach(async () => {
  for (const rig of rigs.splice(0)) {
    await rig.staff.close();
    await rig.app.close();
  }
});

async function rig(): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'fd-staff-'));
  chmodSync(dir, 0o755); // another user must reach the socket to be refused by it
  const groupFile = join(dir, 'group');
  writeFileSync(groupFile, `root:x:0:\ndesk-staff:x:${STAFF_GID}:maria\n`);
  const log = createMemoryLogger();
  const app = buildStatusServer({
    source: new ActionSource(),
    log,
    clock: new ManualClock(NOW),
    sessions: new StaffSessions(),
    staffGroup: 'desk-staff',
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const path = join(dir, 'staff.sock');
  const staff = await serveOnStaffSocket(app, { path, group: 'desk-staff', groupFile, log });
  const ask = (method: 'GET' | 'POST', url: string, json?: unknown) =>
    staffRequest(path, 'desk-staff', {
      method,
      path: url,
      ...(json === undefined ? {} : { json }),
      timeoutMs: 10_000,
      maxBytes: 65536,
    });
  const made = { app, staff, path, log, ask };
  rigs.push(made);
  return made;
}

/** A client in another process, as `setpriv` makes it: prints `status body` or `error CODE`. */
function otherUser(path: string, setpriv: string[], request: { method: string; url: string; body?: string }) {
  const script = `
const req = require('node:http').request({ socketPath: ${JSON.stringify(path)}, method: ${JSON.stringify(request.method)}, path: ${JSON.stringify(request.url)}, headers: { host: 'localhost', 'content-type': 'application/json' } }, (res) => {
  let body = ''; res.on('data', (c) => (body += c)); res.on('end', () => console.log(res.statusCode + ' ' + body));
});
req.on('error', (e) => console.log('error ' + e.code));
req.end(${JSON.stringify(request.body ?? '')});`;
  return new Promise<string>((resolve, reject) => {
    const child = spawn('setpriv', [...setpriv, process.execPath, '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out.trim()));
  });
}

const Z = { method: 'POST', url: `/actions/${FISCAL_ID}/x-report`, body: '{"confirm":"yes"}' };

describe.skipIf(!perl)('the staff socket', () => {
  it('names the peer as the kernel does, and audits an action with its uid', async () => {
    const { path, log, ask } = await rig();
    expect(statSync(path).mode & 0o777).toBe(asRoot ? 0o660 : 0o600);
    const answer = await ask('POST', Z.url, {});
    expect(answer.status).toBe(200);
    const audit = log.lines.filter((l) => l.includes('audit=device-action'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatch(
      new RegExp(`who=staff-socket uid=${process.getuid?.()} .*via=socket .*result=done`),
    );
  });

  it('gives a one-time login address only through the socket', async () => {
    const { app, ask } = await rig();
    const link = await ask('POST', '/login-links');
    expect(link.status).toBe(200);
    expect(JSON.parse(link.body.toString()).url).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/login\?token=[\w-]{43}$/,
    );
    const overTcp = await app.inject({ method: 'POST', url: '/login-links', headers: { host: 'localhost' } });
    expect(overTcp.statusCode).toBe(403);
    expect(overTcp.json()).toMatchObject({ error: { code: 'SOCKET_ONLY' } });
  });

  it.skipIf(!crossUser)(
    'refuses another Unix user outside the staff group: no connection, and by uid through an open socket',
    async () => {
      const { path, log } = await rig();
      const stranger = ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups'];
      expect(await otherUser(path, stranger, Z)).toBe('error EACCES');
      chmodSync(path, 0o666); // a socket left open to everyone: the kernel's uid still decides
      const refused = await otherUser(path, stranger, Z);
      expect(refused).toMatch(/^403 .*"code":"NOT_STAFF"/);
      expect(log.lines.some((l) => l.includes('audit='))).toBe(false);
      expect(log.lines.some((l) => /staff socket refused a connection.*uid=65534/.test(l))).toBe(true);
    },
  );

  it.skipIf(!crossUser)(
    'serves a member of the staff group, and the audit line carries its uid',
    async () => {
      const { path, log } = await rig();
      const member = ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--groups', String(STAFF_GID)];
      expect(await otherUser(path, member, Z)).toMatch(/^200 /);
      expect(log.lines.find((l) => l.includes('audit=device-action'))).toMatch(
        /who=staff-socket uid=65534 user=nobody /,
      );
    },
  );
});

describe('who counts as staff', () => {
  it('root, the service’s own user, and members of the staff group by primary or supplementary gid', () => {
    const policy = { serviceUid: 998, staffGid: STAFF_GID };
    expect(isStaff({ pid: 1, uid: 0, gid: 0 }, policy)).toBe(true);
    expect(isStaff({ pid: 1, uid: 998, gid: 998 }, policy)).toBe(true);
    expect(isStaff({ pid: 1, uid: 1001, gid: STAFF_GID }, policy)).toBe(true);
    expect(isStaff({ pid: 1, uid: 1001, gid: 1001, groups: [24, STAFF_GID] }, policy)).toBe(true);
    expect(isStaff({ pid: 1, uid: 7, gid: 7, groups: [4, 46] }, policy)).toBe(false); // lp, plugdev …
    expect(isStaff({ pid: 1, uid: 1001, gid: 1001 }, { serviceUid: 998 })).toBe(false);
  });

  it('reads the probe’s line and the group file strictly', () => {
    expect(parsePeerLine('peer 12 1001 1001 maria groups 27 4242\n')).toEqual({
      pid: 12,
      uid: 1001,
      gid: 1001,
      user: 'maria',
      groups: [27, 4242],
    });
    expect(parsePeerLine('peer 12 0 0 - groups\n')).toEqual({ pid: 12, uid: 0, gid: 0, groups: [] });
    expect(parsePeerLine('peer 12 1001 1001 maria\nuid 0\n')).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), 'fd-group-'));
    writeFileSync(join(dir, 'group'), 'frontdesk-staff:x:1005:maria,luca\nfrontdesk-staffer:x:7:\n');
    expect(groupId('frontdesk-staff', join(dir, 'group'))).toBe(1005);
    expect(groupId('nope', join(dir, 'group'))).toBeUndefined();
  });
});
