import { BlockList, isIP } from 'node:net';

/**
 * The agent's one loopback rule: whether a host names this machine, for everything that trusts
 * "local" — plain `http://`/`ws://` to the platform, the status page without an access token (its
 * listen address, the `Host` header against DNS rebinding, the peer of a request), the fake
 * platform's admin routes and the device simulators `npm start` runs.
 *
 * Loopback is `localhost` (any case) and any IP address in 127.0.0.0/8 or `::1`, in any spelling
 * Node reads as that address: with or without the brackets of a URL or `Host` header (`[::1]`),
 * IPv4-mapped (`::ffff:127.0.0.1`, `[::ffff:7f00:1]`, as a dual-stack socket reports a local IPv4
 * peer), or `0:0:0:0:0:0:0:1`. Brackets enclose an IPv6 address only (`[127.0.0.1]` is not a host).
 *
 * Not loopback: `localhost.` (the absolute name may be sent to DNS, which can answer anything),
 * other names under `localhost`, any other name that merely starts with `127.` (`127.0.0.1.nip.io`
 * resolves through DNS), and shorthand like `127.1` (a URL of `http:` turns it into `127.0.0.1`
 * before this sees it; a bare host option does not).
 */

const loopbackAddresses = new BlockList();
loopbackAddresses.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackAddresses.addAddress('::1', 'ipv6');

/** True when `host` (a name or an IP address, without a port) is this machine by the rule above. */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost') return true;
  const bracketed = name.startsWith('[') && name.endsWith(']');
  const address = bracketed ? name.slice(1, -1) : name;
  const family = isIP(address);
  if (family === 6) return loopbackAddresses.check(address, 'ipv6');
  // Brackets enclose IPv6 addresses only.
  return family === 4 && !bracketed && loopbackAddresses.check(address, 'ipv4');
}
