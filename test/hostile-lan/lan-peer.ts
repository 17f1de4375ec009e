import { spawnSync } from 'node:child_process';
import { type ScriptedAnswer, type ScriptedRequest, sendScripted } from '../helpers/scripted-client.js';
import { inCi, requireTool } from '../helpers/tools.js';

/**
 * Another computer on the LAN, for the findings that need a peer beyond loopback: a network
 * namespace joined to this one by a veth pair (iproute2), with two addresses of its own. The desk
 * listens on `hostAddress`; requests come from `peerAddresses`, as a laptop or a Prometheus server
 * on the hotel's network would send them. Needs root (CI runs as root).
 */

export const canMakeLan =
  (process.getuid?.() === 0 || inCi) && requireTool('ip', 'puts a LAN peer in a network namespace');

export interface Lan {
  /** The desk's address on the LAN. */
  hostAddress: string;
  /** The peer's two addresses (two machines, as far as the desk can tell). */
  peerAddresses: [string, string];
  /** Sends `requests` in order from inside the namespace; see `LanRequest`. */
  send(requests: LanRequest[]): Promise<ScriptedAnswer[]>;
  close(): void;
}

/** A request of the peer's: `from` says which of its two addresses sends it (default the first). */
export type LanRequest = Omit<ScriptedRequest, 'localAddress'> & { from?: 0 | 1 };

function ip(...args: string[]): void {
  const result = spawnSync('ip', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ip ${args.join(' ')}: ${result.stderr.trim()}`);
}

/** Makes the namespace and its link; `close()` takes both away. */
export function openLan(): Lan {
  const tag = `${process.pid % 10000}${Math.floor(Math.random() * 100)}`;
  const ns = `fd-lan-${tag}`;
  const hostSide = `fdh${tag}`;
  const peerSide = `fdp${tag}`;
  const net = `10.${100 + (process.pid % 100)}.${Math.floor(Math.random() * 250)}`;
  const hostAddress = `${net}.1`;
  const peerAddresses: [string, string] = [`${net}.2`, `${net}.3`];
  ip('netns', 'add', ns);
  try {
    ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', peerSide);
    ip('link', 'set', peerSide, 'netns', ns);
    ip('addr', 'add', `${hostAddress}/24`, 'dev', hostSide);
    ip('link', 'set', hostSide, 'up');
    for (const address of peerAddresses) ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', peerSide);
    ip('-n', ns, 'link', 'set', peerSide, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
  } catch (error) {
    spawnSync('ip', ['link', 'del', hostSide]);
    spawnSync('ip', ['netns', 'del', ns]);
    throw error;
  }
  return {
    hostAddress,
    peerAddresses,
    send: (requests) =>
      sendScripted(
        ['ip', 'netns', 'exec', ns],
        requests.map(({ from, ...request }) => ({ ...request, localAddress: peerAddresses[from ?? 0] })),
      ),
    close() {
      spawnSync('ip', ['link', 'del', hostSide]);
      spawnSync('ip', ['netns', 'del', ns]);
    },
  };
}
