import { readFileSync, readlinkSync } from 'node:fs';

/**
 * The sockets systemd passes to the agent (socket activation, sd_listen_fds(3)): the unit
 * `frontdesk-agent.socket` holds 127.0.0.1:8720 and the staff socket, so both stay bound while the
 * agent restarts and no other program can take them in between (issue 40, finding M6).
 *
 * The protocol, as sd_listen_fds(3) documents it: `LISTEN_PID` is the pid of the process meant
 * (a child that inherits the environment must not take them), `LISTEN_FDS` how many descriptors
 * are passed, starting at 3 (`SD_LISTEN_FDS_START`), and `LISTEN_FDNAMES` their names, separated by
 * colons (`FileDescriptorName=`). One socket unit names all its sockets alike, so the agent reads
 * them in the order the unit lists them — the page first, then the staff socket, as
 * systemd/frontdesk-agent.socket has them — unless their names say `status` and `staff`
 * (`systemd-socket-activate --fdname=status:staff`). The server checks each one's kind when it
 * takes it (a TCP socket for the page, a Unix socket for the staff): a unit that lists them the
 * other way round is refused at start, by name.
 */

/** The first passed descriptor (sd-daemon.h `SD_LISTEN_FDS_START`). */
export const LISTEN_FDS_START = 3;

export interface PassedSockets {
  /** The status page's TCP socket. */
  status?: number;
  /** The staff socket (a Unix socket). */
  staff?: number;
}

/**
 * What systemd passed to the process `pid`, or undefined when it passed nothing to it. Throws
 * nothing: malformed variables mean nothing was passed.
 */
export function passedSockets(env: NodeJS.ProcessEnv, pid: number): PassedSockets | undefined {
  if (env.LISTEN_PID === undefined || Number(env.LISTEN_PID) !== pid) return undefined;
  const count = Number(env.LISTEN_FDS);
  if (!Number.isInteger(count) || count < 1) return undefined;
  const fds = Array.from({ length: Math.min(count, 2) }, (_, i) => LISTEN_FDS_START + i);
  const names = (env.LISTEN_FDNAMES ?? '').split(':');
  const named = (name: string) => {
    const at = names.indexOf(name);
    return at >= 0 && at < count ? LISTEN_FDS_START + at : undefined;
  };
  const status = named('status');
  const staff = named('staff');
  if (status !== undefined || staff !== undefined) {
    return { ...(status !== undefined ? { status } : {}), ...(staff !== undefined ? { staff } : {}) };
  }
  return { status: fds[0] as number, ...(fds[1] !== undefined ? { staff: fds[1] } : {}) };
}

/**
 * The path a passed Unix socket is bound to: Node cannot say (`server.address()` is null for a
 * socket taken by descriptor), so it is read from the kernel, as `ss -x` does — the descriptor's
 * inode (`/proc/self/fd/<fd>` → `socket:[<inode>]`) and that inode's line in
 * `/proc/self/net/unix` (proc(5): `… Inode Path`). Undefined when either cannot be read.
 */
export function unixSocketPath(fd: number, proc = '/proc/self'): string | undefined {
  try {
    const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`${proc}/fd/${fd}`))?.[1];
    if (!inode) return undefined;
    for (const line of readFileSync(`${proc}/net/unix`, 'utf8').split('\n')) {
      const columns = line.trim().split(/\s+/);
      if (columns[6] === inode && columns[7]) return columns[7];
    }
  } catch {
    // not readable: the caller goes without the path
  }
  return undefined;
}
