import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  canonicalAddress,
  findOwner,
  loopbackPeerUid,
  parseProcEndpoint,
} from '../../../src/status/callers/peer-uid.js';
import { inCi } from '../../helpers/tools.js';

/**
 * The uid behind a loopback TCP connection, read from /proc/self/net/tcp{,6} as proc(5) lays
 * them out (the way janikrabe/oidentd's src/kernel/linux.c `get_user4` answers ident queries).
 * Issue 40, item 1: sessions and login codes are bound to it.
 */

const asRoot = process.getuid?.() === 0;
const crossUser = asRoot || inCi;
const NOBODY = 65534;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A server on `host` whose accepted connections are handed out in order. */
async function listen(host: string): Promise<{ port: number; next: () => Promise<Socket> }> {
  const waiting: Array<(socket: Socket) => void> = [];
  const arrived: Socket[] = [];
  const server = createServer((socket) => {
    const take = waiting.shift();
    if (take) take(socket);
    else arrived.push(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as { port: number }).port;
  const next = () => {
    const ready = arrived.shift();
    return ready ? Promise.resolve(ready) : new Promise<Socket>((resolve) => waiting.push(resolve));
  };
  return { port, next };
}

/** A client in another process, as `setpriv` makes it, that stays connected until killed. */
function clientAs(uid: number, host: string, port: number) {
  const script = `require('node:net').connect(${port}, ${JSON.stringify(host)}); setInterval(() => {}, 1000);`;
  return spawn(
    'setpriv',
    ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', process.execPath, '-e', script],
    {
      stdio: 'ignore',
    },
  );
}

describe('the kernel’s table of TCP sockets', () => {
  it('reads addresses in the host’s byte order and ports in network order', () => {
    expect(parseProcEndpoint('0100007F:1F90')).toEqual({ address: '127.0.0.1', port: 8080 });
    expect(parseProcEndpoint('00000000000000000000000001000000:2210')).toEqual({
      address: '::1',
      port: 8720,
    });
    // An IPv4-mapped address in tcp6 is the IPv4 address.
    expect(parseProcEndpoint('0000000000000000FFFF00000100007F:2210')).toEqual({
      address: '127.0.0.1',
      port: 8720,
    });
    expect(parseProcEndpoint('0100007F:1F9')).toBeUndefined();
    expect(canonicalAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(canonicalAddress('[0:0:0:0:0:0:0:1]')).toBe('::1');
  });

  it('finds the established socket whose ends are the peer’s and ours, and no other', () => {
    const table = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:2210 00000000:0000 0A 00000000:00000000 00:00000000 00000000   998        0 1 1 0',
      '   1: 0100007F:2210 0100007F:A000 01 00000000:00000000 00:00000000 00000000   998        0 2 1 0',
      '   2: 0100007F:A000 0100007F:2210 06 00000000:00000000 00:00000000 00000000     0        0 0 1 0',
      '   3: 0100007F:A000 0100007F:2210 01 00000000:00000000 00:00000000 00000000  1001        0 3 1 0',
    ].join('\n');
    const server = { address: '127.0.0.1', port: 8720 };
    expect(findOwner(table, { address: '::ffff:127.0.0.1', port: 0xa000 }, server)).toBe(1001);
    expect(findOwner(table, { address: '127.0.0.1', port: 0xa001 }, server)).toBeUndefined();
  });

  it('names this process’s own uid for its own loopback connection, over IPv4 and IPv6', async () => {
    for (const host of ['127.0.0.1', '::1']) {
      const { port, next } = await listen(host);
      const client = (await import('node:net')).connect(port, host);
      const accepted = await next();
      expect(await loopbackPeerUid(accepted)).toBe(process.getuid?.());
      client.destroy();
    }
  });

  it('says nothing of a peer beyond loopback or a connection without ports', async () => {
    expect(
      await loopbackPeerUid({
        remoteAddress: '192.0.2.7',
        remotePort: 5,
        localAddress: '192.0.2.1',
        localPort: 8720,
      }),
    ).toBeUndefined();
    expect(await loopbackPeerUid({ remoteAddress: '127.0.0.1' })).toBeUndefined();
  });

  it.skipIf(!crossUser)('names another account’s uid: the kernel’s, not the client’s word', async () => {
    const { port, next } = await listen('127.0.0.1');
    const child = clientAs(NOBODY, '127.0.0.1', port);
    try {
      expect(await loopbackPeerUid(await next())).toBe(NOBODY);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it.skipIf(!crossUser)('reads the tables under ProcSubset=pid and ProtectProc=invisible', async () => {
    const mount = mkdtempSync(join(tmpdir(), 'fd-proc-'));
    const mounted = spawnSync('mount', ['-t', 'proc', '-o', 'subset=pid,hidepid=invisible', 'proc', mount]);
    expect(mounted.status, String(mounted.stderr)).toBe(0);
    try {
      const { port, next } = await listen('127.0.0.1');
      const child = clientAs(NOBODY, '127.0.0.1', port);
      try {
        const accepted = await next();
        expect(await loopbackPeerUid(accepted, `${mount}/self/net`)).toBe(NOBODY);
        // What the unit hides: /proc/net itself.
        expect(await loopbackPeerUid(accepted, `${mount}/net`)).toBeUndefined();
      } finally {
        child.kill('SIGKILL');
      }
    } finally {
      spawnSync('umount', [mount]);
      rmdirSync(mount);
    }
  });
});
