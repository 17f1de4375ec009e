import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';

/**
 * Who is at the other end of an accepted Unix socket, as the kernel says: `SO_PEERCRED` (pid, uid,
 * gid of the process that connected, fixed at `connect()`) and `SO_PEERGROUPS` (its supplementary
 * groups, Linux ≥ 4.13).
 *
 * Node 20 exposes neither `getsockopt` nor ancillary data (`SCM_CREDENTIALS` needs `recvmsg`), and
 * the choices without them are unsound or a new native dependency:
 * - matching `/proc/net/unix` inodes to `/proc/<pid>/fd` is racy (fd passing, fork, pid reuse) and
 *   blind under the unit's `ProtectProc=invisible`;
 * - a file-ownership challenge (the client creates a file, the agent reads its owner) needs a
 *   directory the staff can write into, next to the socket;
 * - `unix-dgram` (already a dependency, for sd_notify) reads datagrams without credentials;
 * - an npm addon for `getsockopt` would be one more native build on the desk PC.
 *
 * So the agent asks the kernel through Perl, which Debian, Ubuntu and Raspberry Pi OS always have
 * (`perl-base` is Essential: yes, and ships Socket.pm with `SO_PEERCRED`): the accepted socket is
 * handed to `/usr/bin/perl` as its standard input (a duplicate of the descriptor, documented
 * `child_process` behaviour), which calls `getsockopt` on it and prints the numbers. The answer is
 * the kernel's, not the client's: a client cannot choose what it says. One short-lived process per
 * connection; the CLI opens one or two per command. `getpwuid` in the same process names the
 * user for the audit line.
 */

export interface PeerCredentials {
  pid: number;
  uid: number;
  gid: number;
  /** Supplementary groups from SO_PEERGROUPS; undefined where the kernel does not offer it. */
  groups?: number[];
  /** The uid's login name, when the system knows it. */
  user?: string;
}

/** Where Perl is: root-owned, read-only under the unit's ProtectSystem=strict. */
export const PERL = '/usr/bin/perl';

/** SO_PEERGROUPS from <asm-generic/socket.h>; Perl's Socket.pm does not export it. */
const SO_PEERGROUPS = 59;

const SCRIPT = String.raw`use strict; use Socket;
my $c = getsockopt(STDIN, SOL_SOCKET, SO_PEERCRED) or exit 3;
my ($pid, $uid, $gid) = unpack('l3', $c);
my $g = getsockopt(STDIN, SOL_SOCKET, ${SO_PEERGROUPS});
my $name = getpwuid($uid);
$name = '' unless defined $name && $name =~ /^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,63}$/;
print join(' ', 'peer', $pid, $uid, $gid, $name eq '' ? '-' : $name, defined $g ? ('groups', unpack('L*', $g)) : ()), "\n";`;

const TIMEOUT_MS = 5000;

/** Parses the probe's one line; undefined when it is not what the script prints. */
export function parsePeerLine(line: string): PeerCredentials | undefined {
  const match = /^peer (\d+) (\d+) (\d+) (\S+)(?: groups((?: \d+)*))?\n?$/.exec(line);
  if (!match) return undefined;
  const groups = match[5] === undefined ? undefined : match[5].trim().split(' ').filter(Boolean).map(Number);
  return {
    pid: Number(match[1]),
    uid: Number(match[2]),
    gid: Number(match[3]),
    ...(match[4] !== '-' ? { user: match[4] } : {}),
    ...(groups ? { groups } : {}),
  };
}

/**
 * The kernel's credentials of `socket`'s peer (an accepted AF_UNIX stream socket). Rejects when
 * Perl is missing, the socket is not a Unix socket, or the probe does not answer in 5 s.
 */
export function readPeerCredentials(socket: Socket, perl: string = PERL): Promise<PeerCredentials> {
  return new Promise((resolve, reject) => {
    let out = '';
    let settled = false;
    const finish = (error: Error | undefined, value?: PeerCredentials) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(value as PeerCredentials);
    };
    const child = spawn(perl, ['-e', SCRIPT], {
      stdio: [socket, 'pipe', 'ignore'],
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new Error('the peer credential probe did not answer'));
    }, TIMEOUT_MS);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (out.length < 4096) out += chunk;
    });
    child.on('error', (error) => finish(new Error(`cannot run ${perl}: ${error.message}`)));
    child.on('close', (code) => {
      const credentials = code === 0 ? parsePeerLine(out) : undefined;
      if (credentials) finish(undefined, credentials);
      else finish(new Error(`the peer credential probe failed (exit ${code})`));
    });
  });
}
