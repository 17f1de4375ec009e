import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { endianness } from 'node:os';
import { isLoopback } from '../../loopback.js';
import type { Peer } from './staff-sessions.js';

/**
 * Which Unix account is at the other end of a TCP connection from this PC: the uid that owns the
 * client's socket, as the kernel lists it in `/proc/self/net/tcp` and `tcp6` (proc(5): one line
 * per socket of this network namespace, `local_address rem_address st … uid`). A loopback
 * client's socket is in the same namespace as the agent's, so its line is there: the one whose
 * local end is the peer's address and port and whose remote end is the agent's, in state 01
 * (ESTABLISHED). The uid is the socket's owner, fixed when the client made it; the client cannot
 * choose it.
 *
 * The tables are read through `/proc/self/net`, not `/proc/net` (a link into it): the unit's
 * `ProcSubset=pid` hides `/proc/net` but keeps `/proc/self`, and `ProtectProc=invisible` hides
 * other processes, never these tables. Both were tried with a procfs mounted with
 * `subset=pid,hidepid=invisible` (test/status/callers/peer-uid.test.ts).
 *
 * An ident server answers RFC 1413 queries the same way: `oidentd` matches a connection's two
 * ends against the lines of `/proc/net/tcp` and `tcp6` and answers with the line's uid
 * (janikrabe/oidentd, src/kernel/linux.c, `get_user4` and `get_user6`).
 */

/** One end of a connection: an IP address and a port. */
export interface Endpoint {
  address: string;
  port: number;
}

/** Where the tables are: `/proc/self/net` (tests point it at a copy). */
export const PROC_NET = '/proc/self/net';

/** `::ffff:127.0.0.1`, `[::1]`, `0:0:0:0:0:0:0:1` → one spelling per address. */
export function canonicalAddress(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(bare) === 4) return bare;
  if (isIP(bare) !== 6) return bare;
  const host = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const high = Number.parseInt(mapped[1] as string, 16);
  const low = Number.parseInt(mapped[2] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** The four bytes of one 32-bit word as the kernel printed it (`%08X` of the host's order). */
function wordBytes(hex: string): number[] {
  const n = Number.parseInt(hex, 16);
  const big = [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  return LITTLE_ENDIAN ? big.reverse() : big;
}

/** `0100007F:1F90` → 127.0.0.1:8080; 32 hex digits for IPv6. Undefined when malformed. */
export function parseProcEndpoint(text: string): Endpoint | undefined {
  const match = /^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})$/.exec(text);
  if (!match) return undefined;
  const hex = match[1] as string;
  const bytes: number[] = [];
  for (let i = 0; i < hex.length; i += 8) bytes.push(...wordBytes(hex.slice(i, i + 8)));
  const address =
    bytes.length === 4
      ? bytes.join('.')
      : Array.from({ length: 8 }, (_, i) =>
          (((bytes[2 * i] as number) << 8) | (bytes[2 * i + 1] as number)).toString(16),
        ).join(':');
  return { address: canonicalAddress(address), port: Number.parseInt(match[2] as string, 16) };
}

const ESTABLISHED = '01';

/**
 * The uid owning the socket whose local end is `client` and whose remote end is `server`, in the
 * text of one table. Undefined when no established socket matches.
 */
export function findOwner(table: string, client: Endpoint, server: Endpoint): number | undefined {
  const clientAddress = canonicalAddress(client.address);
  const serverAddress = canonicalAddress(server.address);
  for (const line of table.split('\n')) {
    const columns = line.trim().split(/\s+/);
    if (columns.length < 8 || columns[3] !== ESTABLISHED) continue;
    const local = parseProcEndpoint(columns[1] as string);
    if (!local || local.port !== client.port || local.address !== clientAddress) continue;
    const remote = parseProcEndpoint(columns[2] as string);
    if (!remote || remote.port !== server.port || remote.address !== serverAddress) continue;
    const uid = Number(columns[7]);
    if (Number.isInteger(uid) && uid >= 0) return uid;
  }
  return undefined;
}

/** What a connection shows of its two ends (a `net.Socket`, or a test's stand-in). */
export interface ConnectionEnds {
  remoteAddress?: string | undefined;
  remotePort?: number | undefined;
  localAddress?: string | undefined;
  localPort?: number | undefined;
}

/**
 * The uid of a loopback TCP peer, or undefined: the peer is not on loopback, the connection has
 * no ports (not a TCP socket), or neither table lists its socket (it has closed). Never rejects.
 */
export async function loopbackPeerUid(
  socket: ConnectionEnds,
  procNet = PROC_NET,
): Promise<number | undefined> {
  const { remoteAddress, remotePort, localAddress, localPort } = socket;
  if (!remoteAddress || !localAddress || !remotePort || !localPort || !isLoopback(remoteAddress))
    return undefined;
  const client = { address: remoteAddress, port: remotePort };
  const server = { address: localAddress, port: localPort };
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = await readFile(`${procNet}/${table}`, 'utf8');
    } catch {
      continue;
    }
    const uid = findOwner(text, client, server);
    if (uid !== undefined) return uid;
  }
  return undefined;
}

/**
 * Who is at the other end of each connection (staff-sessions.ts `Peer`): its address, whether it
 * is on this PC, and then the uid owning its socket. Asked once per connection: a browser's
 * keep-alive connection serves many requests, and its owner cannot change.
 */
export function peerResolver(
  uidOf: (socket: ConnectionEnds) => Promise<number | undefined> = loopbackPeerUid,
): (socket: ConnectionEnds & object, ip: string | undefined) => Promise<Peer> {
  const known = new WeakMap<object, Promise<Peer>>();
  return (socket, ip) => {
    let peer = known.get(socket);
    if (!peer) {
      const address = ip ?? socket.remoteAddress ?? 'unknown';
      const local = isLoopback(address);
      peer = local
        ? uidOf(socket).then((uid) => ({ local, address, uid }))
        : Promise.resolve({ local, address });
      known.set(socket, peer);
    }
    return peer;
  };
}
