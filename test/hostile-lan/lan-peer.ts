import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  send(requests: LanRequest[]): Promise<LanAnswer[]>;
  close(): void;
}

export interface LanRequest {
  /** http:// or https:// on the desk's LAN address. */
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Which of the peer's addresses sends it (default the first). */
  from?: 0 | 1;
  /** For https: the desk's certificate (PEM) to trust. */
  ca?: string;
}

export interface LanAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function ip(...args: string[]): void {
  const result = spawnSync('ip', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ip ${args.join(' ')}: ${result.stderr.trim()}`);
}

const CLIENT = `
const requests = JSON.parse(process.argv[1]);
const addresses = JSON.parse(process.argv[2]);
(async () => {
  const out = [];
  for (const r of requests) {
    const url = new URL(r.url);
    const lib = require(url.protocol === 'https:' ? 'node:https' : 'node:http');
    const headers = { ...(r.headers ?? {}) };
    if (r.body !== undefined) headers['content-length'] = String(Buffer.byteLength(r.body));
    out.push(await new Promise((resolve) => {
      const req = lib.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: r.method ?? 'GET', headers,
        localAddress: addresses[r.from ?? 0], ...(r.ca ? { ca: r.ca } : {}) }, (res) => {
        let text = ''; res.setEncoding('utf8'); res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      });
      req.on('error', (e) => resolve({ status: 0, headers: {}, text: e.code ?? e.message }));
      req.end(r.body);
    }));
  }
  process.stdout.write(JSON.stringify(out));
})();`;

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
      new Promise((resolve, reject) => {
        const child = spawn(
          'ip',
          [
            'netns',
            'exec',
            ns,
            process.execPath,
            '-e',
            CLIENT,
            JSON.stringify(requests),
            JSON.stringify(peerAddresses),
          ],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
        });
        child.on('error', reject);
        child.on('close', () => {
          try {
            resolve(JSON.parse(out) as LanAnswer[]);
          } catch (error) {
            reject(error);
          }
        });
      }),
    close() {
      spawnSync('ip', ['link', 'del', hostSide]);
      spawnSync('ip', ['netns', 'del', ns]);
    },
  };
}

/** A self-signed certificate for `address` (openssl), as IT would make one for the desk. */
export function selfSignedCertificate(address: string, dir: string): { cert: string; key: string } {
  const result = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=frontdesk-desk',
      '-addext',
      `subjectAltName=IP:${address},IP:127.0.0.1`,
      '-keyout',
      `${dir}/status.key`,
      '-out',
      `${dir}/status.crt`,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`openssl: ${result.stderr}`);
  const read = (name: string) => readFileSync(`${dir}/${name}`, 'utf8');
  return { cert: read('status.crt'), key: read('status.key') };
}
