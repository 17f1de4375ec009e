import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { tempDir } from '../../helpers/daemon.js';
import { findExecutable } from '../../helpers/tools.js';

/**
 * CUPS's IPP Everywhere printer, `ippeveprinter` (Debian cups-ipp-utils), as a test printer on
 * localhost: its own spool directory kept (`-d DIR -k`, one file per received document, named
 * `JOBID-JOBNAME.ext`), no DNS-SD registration (`-r off`), and a print command (`-c`) standing in
 * for the marking engine that reports `job-impressions` and one `job-impressions-completed` per
 * page and copy (ippeveprinter reads `ATTR:` lines from the command's stderr). It needs a D-Bus
 * for its Avahi client even when it registers nothing, so a private bus is started beside it.
 */

export const IPPEVEPRINTER = '/usr/sbin/ippeveprinter';
export const DBUS_DAEMON = 'dbus-daemon';

export interface Ippeve {
  readonly port: number;
  /** ipp://localhost:PORT/ipp/print */
  readonly uri: string;
  readonly spoolDir: string;
  /** The documents it received (kept spool files), by job name. */
  documents(): Array<{ jobId: number; jobName: string; file: string }>;
  /** Empties (or fills) its paper trays through its /media web form. */
  setPaperEmpty(empty: boolean): Promise<void>;
  readonly log: string[];
  stop(): Promise<void>;
}

const ENGINE = `#!/bin/sh
# Marking engine for ippeveprinter -c: counts the PDF's pages and "prints" them, copy by copy.
pages=$(grep -ao '/Type */Page[^s]' "$1" | wc -l)
[ "$pages" -gt 0 ] || pages=1
copies=\${IPP_COPIES:-1}
echo "ATTR: job-impressions=$pages" >&2
i=0
total=$((pages * copies))
while [ "$i" -lt "$total" ]; do
  sleep "\${PAGE_DELAY:-0}"
  i=$((i + 1))
  echo "ATTR: job-impressions-completed=$i" >&2
done
exit 0
`;

function waitFor(
  child: ChildProcess,
  lines: string[],
  pattern: RegExp,
  what: string,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        lines.push(line);
        const m = pattern.exec(line);
        if (m) {
          resolve(m);
        }
        nl = buffer.indexOf('\n');
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`${what} exited (${code}) before it was ready:\n${lines.slice(-10).join('\n')}`)),
    );
  });
}

async function startBus(dir: string): Promise<{ address: string; child: ChildProcess }> {
  const socket = join(dir, 'bus');
  const child = spawn(
    DBUS_DAEMON,
    ['--session', `--address=unix:path=${socket}`, '--nofork', '--nopidfile', '--print-address'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await waitFor(child, [], /^unix:/, 'dbus-daemon');
  return { address: `unix:path=${socket}`, child };
}

export interface IppeveOptions {
  name?: string;
  formats?: string[];
  /** Seconds per page the engine takes. */
  pageDelay?: number;
}

export async function startIppeveprinter(options: IppeveOptions = {}): Promise<Ippeve> {
  if (!findExecutable(IPPEVEPRINTER)) throw new Error(`${IPPEVEPRINTER} is missing`);
  const dir = tempDir('ippeve');
  const spoolDir = join(dir, 'spool');
  mkdirSync(spoolDir);
  const engine = join(dir, 'engine.sh');
  writeFileSync(engine, ENGINE);
  chmodSync(engine, 0o755);
  const bus = await startBus(dir);
  const log: string[] = [];
  const child = spawn(
    IPPEVEPRINTER,
    [
      '-n',
      'localhost',
      '-r',
      'off',
      '-d',
      spoolDir,
      '-k',
      '-c',
      engine,
      '-f',
      (options.formats ?? ['application/pdf', 'image/jpeg']).join(','),
      options.name ?? 'Reception Laser',
    ],
    {
      env: {
        ...process.env,
        DBUS_SYSTEM_BUS_ADDRESS: bus.address,
        PAGE_DELAY: String(options.pageDelay ?? 0),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let port: number;
  try {
    const m = await waitFor(child, log, /Listening on port (\d+)\./, 'ippeveprinter');
    port = Number(m[1]);
  } catch (e) {
    bus.child.kill('SIGKILL');
    throw e;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const web = (path: string) =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path, method: 'GET', headers: { Host: `localhost:${port}` } },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`GET ${path}: ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  return {
    port,
    uri: `ipp://localhost:${port}/ipp/print`,
    spoolDir,
    log,
    documents: () =>
      existsSync(spoolDir)
        ? readdirSync(spoolDir)
            .filter((f) => !f.endsWith('.prn'))
            .map((file) => {
              const m = /^(\d+)-(.*)\.[^.]+$/.exec(file);
              return { jobId: Number(m?.[1]), jobName: m?.[2] ?? file, file };
            })
            .sort((a, b) => a.jobId - b.jobId)
        : [],
    // The trays are main (1) and by-pass-tray (3); auto and manual are skipped by the form.
    setPaperEmpty: (empty) =>
      web(
        empty
          ? '/media?size1=na_letter_8.5x11in&level1=0&size3=na_number-10_4.125x9.5in&level3=0'
          : '/media?size1=na_letter_8.5x11in&type1=stationery&level1=250&size3=na_number-10_4.125x9.5in&level3=25',
      ),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      bus.child.kill('SIGTERM');
    },
  };
}
