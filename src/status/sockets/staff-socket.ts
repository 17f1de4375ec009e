import { chmodSync, chownSync, lstatSync, mkdirSync, readFileSync, type Stats, unlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { dirname, resolve } from 'node:path';
import { AgentError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { unixSocketPath } from './passed-sockets.js';
import { type PeerCredentials, readPeerCredentials } from './peer-credentials.js';

/**
 * The staff socket: the status server's routes on a Unix socket, for the command line (`report`,
 * `void`, `login`, `cut-keys --follow`, `doctor`). Whoever connects has proved who they are twice:
 *
 * - the file system: the socket is mode 0660, group `status.staffGroup` (frontdesk-staff, made by
 *   systemd/install.sh), in a directory only root and the service can write
 *   (`/run/frontdesk-agent`, the unit's RuntimeDirectory=), so a process outside the group cannot
 *   even connect;
 * - the kernel: every connection's peer credentials (peer-credentials.ts) must name root, the
 *   service's own user, or a member of the staff group (primary or supplementary, as the kernel
 *   saw them at `connect()`); anything else is closed before a byte is answered.
 *
 * The peer's uid and user name go into every audit line of what it does. Without the group on
 * this system (`npm start` on a laptop) the socket is 0600: the user running the agent, and root.
 */

/** Where the staff socket is when the config names none: the socket unit's, /run/frontdesk-agent. */
export const DEFAULT_STAFF_SOCKET = '/run/frontdesk-agent/staff.sock';

/**
 * The one rule for where the staff socket is (issue 41, item 2), for the agent and the command
 * line alike, with or without systemd: `status.staffSocket` when the configuration names one,
 * else `/run/frontdesk-agent/staff.sock` — the path systemd/frontdesk-agent.socket holds, and the
 * one an agent started by hand as root makes. Both sides read the same configuration file, so
 * they find the same path.
 */
export function staffSocketPath(configured: string | undefined): string {
  return configured ?? DEFAULT_STAFF_SOCKET;
}

/**
 * Why the directories leading to a socket cannot be trusted, or undefined when they can: every
 * one from `dir` up to `/` must be a directory (not a link), owned by root or one of `owners`, and
 * writable by no one else — a group- or world-writable one only with the sticky bit and root's
 * (`/tmp`), where nobody can replace what another user made. Otherwise someone else could have put
 * a socket of theirs where the agent's is looked for. Throws what `stat` throws for a missing one.
 */
export function untrustedDirectory(
  dir: string,
  owners: readonly number[],
  stat: (p: string) => Stats = lstatSync,
): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const info = stat(at);
    if (!info.isDirectory()) return `${at} is not a directory`;
    const mode = (info.mode & 0o7777).toString(8).padStart(4, '0');
    if (info.uid !== 0 && !owners.includes(info.uid))
      return `${at} belongs to uid ${info.uid}, neither root nor the agent`;
    const shared = (info.mode & 0o022) !== 0;
    if (shared && !((info.mode & 0o1000) !== 0 && info.uid === 0))
      return `${at} can be written by others (mode ${mode})`;
    if (at === dirname(at)) return undefined;
  }
}

/**
 * Makes the staff socket's directory when it is missing and this process may (root, for
 * /run/frontdesk-agent: mode 0755, root's), then checks the chain up to `/` (`untrustedDirectory`,
 * owned by root or this process). Returns why there can be no staff socket there, or undefined.
 */
export function prepareStaffDirectory(path: string, ownUid: number): string | undefined {
  const dir = dirname(resolve(path));
  try {
    // One level only, as systemd makes it (and a recursive mkdir never returns under /proc).
    mkdirSync(dir, { mode: 0o755 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    if (code !== 'EEXIST')
      return `its directory ${dir} does not exist and cannot be made (${code}: only root, or systemd's frontdesk-agent.socket, can make it)`;
  }
  try {
    const problem = untrustedDirectory(dir, [ownUid]);
    return problem ? `${problem}: anyone could put a socket there` : undefined;
  } catch (error) {
    return `its directory ${dir} cannot be checked (${(error as Error).message})`;
  }
}

export interface StaffPolicy {
  /** The agent's own uid: the service user, or whoever runs `npm start`. */
  serviceUid: number;
  /** The staff group's id, when the group exists. */
  staffGid?: number;
}

/** Root, the service's own user, or a member of the staff group. */
export function isStaff(peer: PeerCredentials, policy: StaffPolicy): boolean {
  if (peer.uid === 0 || peer.uid === policy.serviceUid) return true;
  const gid = policy.staffGid;
  return gid !== undefined && (peer.gid === gid || (peer.groups ?? []).includes(gid));
}

/**
 * The id of `name` in an account database laid out as `name:password:id:…` — /etc/passwd for a
 * user, /etc/group for a group (Node has no getpwnam or getgrnam). Undefined when there is none.
 */
export function accountId(name: string, file: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const [entry, , id] = line.split(':');
    if (entry === name && id !== undefined && /^\d+$/.test(id)) return Number(id);
  }
  return undefined;
}

/** A group's id from /etc/group; undefined when there is no such group. */
export function groupId(name: string, file = '/etc/group'): number | undefined {
  return accountId(name, file);
}

export interface StaffSocketOptions {
  path: string;
  /**
   * The socket systemd made and passed (passed-sockets.ts): already bound at its path, with the
   * unit's owner, group and mode (`SocketGroup=`, `SocketMode=`), so it is taken as it is.
   */
  fd?: number;
  /** The staff group's name (`status.staffGroup`). */
  group: string;
  /** Serves one request (the status server's `app.routing`). */
  handler: (request: IncomingMessage, response: ServerResponse) => void;
  log: Logger;
  /** For tests: the uid and group file the policy is built from, and the credential probe. */
  serviceUid?: number;
  groupFile?: string;
  readPeer?: (socket: Socket) => Promise<PeerCredentials>;
}

export interface StaffSocket {
  readonly path: string;
  /**
   * The staff peer of a request's connection, once the kernel said who it is. Undefined (not a
   * promise) for a connection that did not come through this socket; a promise of undefined for
   * one whose peer is not staff.
   */
  peerOf(socket: Socket): Promise<PeerCredentials | undefined> | undefined;
  close(): Promise<void>;
}

/** Most credential probes in flight; a connection beyond it is closed (only staff can connect). */
const MAX_PENDING = 8;

/** Clears a socket file left by an agent that died; refuses anything else at `path`. */
async function clearStale(path: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch {
    return; // nothing there
  }
  if (!isSocket)
    throw new AgentError('CONFIG_INVALID', `status.staffSocket ${path} exists and is not a socket`);
  const alive = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (alive) throw new AgentError('CONFIG_INVALID', `status.staffSocket ${path} is in use by another agent`);
  unlinkSync(path);
}

/** `server.listen(where)`, rejecting with CONFIG_INVALID that names `what`. */
function listenOn(server: Server, where: string | { fd: number }, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    throw new AgentError('CONFIG_INVALID', `Cannot listen on ${what}: ${(error as Error).message}`, {
      cause: error,
    });
  });
}

/**
 * Listens on `options.path` (mode 0660, the staff group), or takes the socket systemd passed
 * (`options.fd`), and serves staff only.
 */
export async function startStaffSocket(options: StaffSocketOptions): Promise<StaffSocket> {
  const { path, log } = options;
  const staffGid = groupId(options.group, options.groupFile);
  const policy: StaffPolicy = {
    serviceUid: options.serviceUid ?? process.getuid?.() ?? -1,
    ...(staffGid !== undefined ? { staffGid } : {}),
  };
  const readPeer = options.readPeer ?? ((socket: Socket) => readPeerCredentials(socket));
  const peers = new WeakMap<Socket, Promise<PeerCredentials | undefined>>();
  let pending = 0;

  const server: Server = createServer(options.handler);
  server.on('connection', (socket: Socket) => {
    if (pending >= MAX_PENDING) {
      socket.destroy();
      return;
    }
    pending++;
    const peer = readPeer(socket)
      .then((credentials) => {
        if (isStaff(credentials, policy)) return credentials;
        log.warn('staff socket refused a connection: not root, the service or staff', {
          uid: credentials.uid,
          ...(credentials.user ? { user: credentials.user } : {}),
          group: options.group,
        });
        // Its requests are answered 403 (and the connection closed) by the server; this only
        // bounds a peer that sends none.
        socket.setTimeout(5000, () => socket.destroy());
        return undefined;
      })
      .catch((error: unknown) => {
        log.error('staff socket could not read who connected', { error: (error as Error).message });
        socket.destroy();
        return undefined;
      })
      .finally(() => {
        pending--;
      });
    peers.set(socket, peer);
  });

  if (options.fd !== undefined) {
    await listenOn(server, { fd: options.fd }, `the staff socket systemd passed (fd ${options.fd})`);
    // Node names no address for a Unix socket taken by descriptor (null), and a TCP one's.
    if (server.address() !== null) {
      server.close();
      throw new AgentError(
        'CONFIG_INVALID',
        `The second socket systemd passed is not a Unix socket: frontdesk-agent.socket must list 127.0.0.1:8720 first, then the staff socket`,
      );
    }
    const bound = unixSocketPath(options.fd) ?? path;
    if (resolve(bound) !== resolve(path))
      log.warn(
        'systemd passes a staff socket other than status.staffSocket: the command line looks for the configured one',
        {
          passed: bound,
          configured: path,
        },
      );
    log.info('staff socket listening (held by systemd)', { path: bound, group: options.group });
  } else {
    await clearStale(path);
    await listenOn(server, path, `status.staffSocket ${path}`);
    let mode = 0o600;
    if (staffGid !== undefined) {
      try {
        chownSync(path, -1, staffGid);
        mode = 0o660;
      } catch (error) {
        log.warn('the staff socket cannot be given to the staff group: only this user and root can use it', {
          group: options.group,
          error: (error as Error).message,
        });
      }
    } else {
      log.info('no staff group on this system: only this user and root can use the staff socket', {
        group: options.group,
      });
    }
    chmodSync(path, mode);
    log.info('staff socket listening', { path, mode: mode.toString(8), group: options.group });
  }

  let closing: Promise<void> | undefined;
  return {
    path,
    peerOf: (socket) => peers.get(socket),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
