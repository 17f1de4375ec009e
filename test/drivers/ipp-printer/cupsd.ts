import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../../helpers/daemon.js';
import { eventually } from '../../helpers/eventually.js';

/**
 * A real CUPS scheduler for tests: `cupsd -f` (foreground) with its own configuration and state
 * in a temporary directory (`-c`, `-s`), listening on 127.0.0.1 at a free port only, no browsing,
 * no web interface. Its access policy is the installed Debian default's (`<Policy default>` of
 * /etc/cups/cupsd.conf when present), so what an unauthenticated local client may do — print,
 * list its own jobs, cancel them or not — is what a front-desk PC's CUPS allows; the agent under
 * test always speaks to it over TCP, unauthenticated, as a front-desk PC's agent does.
 *
 * Queues are added by root with `lpadmin` over the scheduler's own domain socket (`Listen
 * <dir>/cups.sock`), never over TCP. Why: CUPS 2.4.17 (CVE-2026-34990, "the scheduler incorrectly
 * allowed local certificates over the loopback interface"; OpenPrinting/cups:CHANGES.md), shipped
 * by Debian as `cups 2.4.2-3+deb12u10`, no longer offers the root certificate over 127.0.0.1, so
 * `lpadmin -h 127.0.0.1:PORT` gets 401. Over AF_LOCAL every maintained CUPS authenticates root:
 * by SO_PEERCRED (`PeerCred` authorization, OpenPrinting/cups:scheduler/auth.c, "Use peer
 * credentials from domain socket connection") or, where peer credentials are off, by the local
 * certificate, which auth.c still accepts when the address family is AF_LOCAL. Where the scheduler
 * knows the `PeerCred` directive (cups-files.conf(5), added with CVE-2025-61915's fix), the test
 * sets it to `root-only`, so what it grants is written down: peer credentials for root, nobody
 * else; an older scheduler would stop on the unknown directive (FatalErrors config), so it is
 * probed with `cupsd -t` first. Needs root, like cupsd itself.
 */

export const CUPSD = '/usr/sbin/cupsd';
export const LPADMIN = 'lpadmin';
const exec = promisify(execFile);

export interface Cupsd {
  readonly port: number;
  /** ipp://127.0.0.1:PORT */
  readonly url: string;
  /** The scheduler's domain socket, where root administers it (lpadmin -h <socket>). */
  readonly adminSocket: string;
  addQueue(name: string, deviceUri: string): Promise<void>;
  readonly errorLog: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function stockPolicy(): string {
  const fallback = `<Policy default>
  JobPrivateAccess default
  JobPrivateValues default
  <Limit Create-Job Print-Job Print-URI Validate-Job>
    Order deny,allow
  </Limit>
  <Limit CUPS-Add-Modify-Printer CUPS-Delete-Printer CUPS-Add-Modify-Class CUPS-Delete-Class CUPS-Set-Default CUPS-Get-Devices>
    AuthType Default
    Require user @SYSTEM
    Order deny,allow
  </Limit>
  <Limit Cancel-Job CUPS-Authenticate-Job>
    Require user @OWNER @SYSTEM
    Order deny,allow
  </Limit>
  <Limit All>
    Order deny,allow
  </Limit>
</Policy>`;
  try {
    const text = readFileSync('/etc/cups/cupsd.conf', 'utf8');
    const m = /<Policy default>[\s\S]*?<\/Policy>/.exec(text);
    return m?.[0] ?? fallback;
  } catch {
    return fallback;
  }
}

/** Whether this cupsd accepts the configuration (`cupsd -t`: test the files and exit). */
async function configAccepted(cupsdConf: string, filesConf: string): Promise<boolean> {
  try {
    await exec(CUPSD, ['-t', '-c', cupsdConf, '-s', filesConf]);
    return true;
  } catch {
    return false;
  }
}

async function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startCupsd(): Promise<Cupsd> {
  const dir = tempDir('cupsd');
  chmodSync(dir, 0o755);
  for (const sub of ['root', 'spool', 'cache', 'state', 'tmp', 'log']) {
    mkdirSync(join(dir, sub), { recursive: true });
    chmodSync(join(dir, sub), 0o755);
  }
  const port = await freePort();
  const adminSocket = join(dir, 'cups.sock');
  const filesConf = join(dir, 'root', 'cups-files.conf');
  const cupsdConf = join(dir, 'root', 'cupsd.conf');
  const files = [
    `ServerRoot ${dir}/root`,
    `RequestRoot ${dir}/spool`,
    `CacheDir ${dir}/cache`,
    `StateDir ${dir}/state`,
    `TempDir ${dir}/tmp`,
    `AccessLog ${dir}/log/access_log`,
    `ErrorLog ${dir}/log/error_log`,
    `PageLog ${dir}/log/page_log`,
    `Printcap ${dir}/printcap`,
    'ServerBin /usr/lib/cups',
    'DataDir /usr/share/cups',
    'SystemGroup root',
  ];
  writeFileSync(
    cupsdConf,
    [
      'LogLevel info',
      `Listen 127.0.0.1:${port}`,
      `Listen ${adminSocket}`,
      'Browsing No',
      'BrowseLocalProtocols none',
      'WebInterface No',
      'DefaultAuthType Basic',
      '<Location />',
      '  Order allow,deny',
      '  Allow 127.0.0.1',
      '</Location>',
      stockPolicy(),
      '',
    ].join('\n'),
  );
  writeFileSync(filesConf, [...files, 'PeerCred root-only', ''].join('\n'));
  if (!(await configAccepted(cupsdConf, filesConf))) writeFileSync(filesConf, [...files, ''].join('\n'));
  const child: ChildProcess = spawn(CUPSD, ['-f', '-c', cupsdConf, '-s', filesConf], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr?.on('data', (c: Buffer) => output.push(c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(
    `cupsd to listen on ${port}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`cupsd exited (${child.exitCode}): ${output.join('')}`);
      return reachable(port);
    },
    { intervalMs: 50 },
  );
  const errorLog = join(dir, 'log', 'error_log');
  return {
    port,
    url: `ipp://127.0.0.1:${port}`,
    adminSocket,
    errorLog,
    addQueue: async (name, deviceUri) => {
      await exec(LPADMIN, ['-h', adminSocket, '-p', name, '-E', '-v', deviceUri, '-m', 'everywhere'], {
        env: { ...process.env, CUPS_STATEDIR: join(dir, 'state'), CUPS_SERVERROOT: join(dir, 'root') },
      });
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      if (existsSync(errorLog)) output.length = 0;
    },
  };
}
