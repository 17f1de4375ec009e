import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Config, resolveSecrets, type Secrets } from '../config.js';
import type { RequestRecord } from '../connector/api.js';
import { createConnectorClient } from '../connector/client.js';
import type { WireDevice } from '../connector/wire.js';
import { toAgentError } from '../errors.js';
import { silentLogger } from '../log.js';
import { clientName } from '../version.js';
import type { Check } from './doctor-report.js';

/**
 * Doctor's platform checks: the token sources and their file modes, one `devices/getAll` (the
 * platform answers, accepts the tokens, knows every configured device with its type) and the
 * clock skew read from that answer's `Date` header.
 */

/** A token source as `resolveSecrets` would use it (same order: file, credential, environment). */
interface TokenSource {
  what: string;
  file?: string;
  env?: string;
  /** A systemd credential: root-managed, readable by the service alone; its mode is systemd's. */
  credential?: boolean;
}

function tokenSources(config: Config, env: NodeJS.ProcessEnv): TokenSource[] {
  const directory = env.CREDENTIALS_DIRECTORY;
  const inCredentials = (file: string) =>
    directory !== undefined && directory !== '' && resolve(file).startsWith(`${resolve(directory)}/`);
  const source = (what: string, file: string | undefined, credential: string, envName: string) => {
    if (file) return { what, file: resolve(file), credential: inCredentials(file) };
    const fromCredentials = env.CREDENTIALS_DIRECTORY
      ? join(env.CREDENTIALS_DIRECTORY, credential)
      : undefined;
    if (fromCredentials && exists(fromCredentials)) return { what, file: fromCredentials, credential: true };
    return { what, env: envName };
  };
  const list: TokenSource[] = [
    source('client token', config.platform.clientTokenFile, 'client-token', config.platform.clientTokenEnv),
    source('access token', config.platform.accessTokenFile, 'access-token', config.platform.accessTokenEnv),
  ];
  if (config.status.accessTokenFile)
    list.push({
      what: 'status page token',
      file: resolve(config.status.accessTokenFile),
      credential: inCredentials(config.status.accessTokenFile),
    });
  return list;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Tokens readable, token files not readable by anyone but their owner. */
export function checkTokens(
  config: Config,
  env: NodeJS.ProcessEnv,
): { check: Check; secrets?: Secrets; extraSecrets: string[] } {
  const title = 'tokens';
  if (config.simulator?.enabled) {
    return {
      check: { id: 'tokens', title, status: 'ok', summary: 'the embedded platform simulator’s (demo)' },
      extraSecrets: [],
    };
  }
  // File modes first: a token file others can read is a problem even when the agent reads it.
  const details: string[] = [];
  const fix: string[] = [];
  const problems: string[] = [];
  /** Files already reported, so the agent's own refusal of one is not said twice. */
  const reported: string[] = [];
  for (const source of tokenSources(config, env)) {
    if (source.env) {
      details.push(`${source.what}: from the environment variable ${source.env}`);
      continue;
    }
    const file = source.file as string;
    let mode: number;
    try {
      mode = statSync(file).mode & 0o777;
    } catch (error) {
      problems.push(`${source.what} file ${file} cannot be read (${(error as NodeJS.ErrnoException).code})`);
      reported.push(file);
      fix.push(`Create ${file} holding the ${source.what} on one line (mode 0600), or correct its path.`);
      continue;
    }
    const octal = mode.toString(8).padStart(4, '0');
    details.push(`${source.what}: ${file} (mode ${octal})`);
    if (mode & 0o077 && !source.credential) {
      problems.push(`${file} can be read by other users (mode ${octal})`);
      reported.push(file);
      fix.push(`sudo chmod 600 ${file}`);
    }
  }
  let secrets: Secrets | undefined;
  try {
    secrets = resolveSecrets(config, env);
  } catch (error) {
    const said = toAgentError(error).message;
    if (!reported.some((file) => said.includes(file))) problems.unshift(said);
    if (fix.length === 0)
      fix.push(
        'Install the tokens with systemd/install.sh --tokens-from-stdin, or set platform.clientTokenFile and accessTokenFile to readable files.',
      );
  }
  const extraSecrets: string[] = [];
  if (config.status.accessTokenFile) {
    try {
      const value = readToken(config.status.accessTokenFile);
      if (value) extraSecrets.push(value);
      else problems.push(`the status page token file ${config.status.accessTokenFile} is empty`);
    } catch {
      // its mode or absence is reported above
    }
  }
  const check: Check =
    problems.length === 0
      ? {
          id: 'tokens',
          title,
          status: 'ok',
          summary: 'readable, and no token file is readable by others',
          details,
        }
      : { id: 'tokens', title, status: 'fail', summary: problems.join('; '), details, fix };
  return { check, ...(secrets ? { secrets } : {}), extraSecrets };
}

function readToken(path: string): string {
  return readFileSync(path, 'utf8').trim();
}

/** What `checkPlatform` learnt, for the device and clock checks. */
export interface PlatformFindings {
  checks: Check[];
  devices?: WireDevice[];
}

/** What to do about each way `devices/getAll` can fail. */
export function platformFix(code: string): string[] {
  switch (code) {
    case 'PLATFORM_AUTH':
      return [
        'The platform refused the tokens: check the ClientToken and AccessToken of this integration (install them again with systemd/install.sh --tokens-from-stdin) and that the integration is enabled on the platform.',
      ];
    case 'PLATFORM_UNREACHABLE':
    case 'PLATFORM_TIMEOUT':
      return [
        'Check this PC’s network, DNS and any firewall or proxy towards platform.url (curl -sS -o /dev/null -w "%{http_code}\\n" <platform.url> must print a number).',
        'Meanwhile the agent keeps every result and delivers it when the platform can be reached.',
      ];
    case 'PLATFORM_ERROR':
      return [
        'The platform answers with server errors: it is down or in maintenance. Nothing to change here: the agent keeps every result and delivers it when the platform is back; if it lasts, ask the platform’s support.',
      ];
    case 'RATE_LIMITED':
      return [
        'The token’s request budget is used up, maybe by other software on the same token: try again in a minute.',
      ];
    case 'PLATFORM_FORBIDDEN':
      return [
        'The platform refused for a business reason (above): check the integration’s settings on the platform.',
      ];
    default:
      return [
        'platform.url answers, but not as the Connector API does: check platform.url (a proxy in the way?).',
      ];
  }
}

/**
 * One `devices/getAll` with a short timeout and no retries. Returns the platform, devices and
 * clock checks.
 */
export async function checkPlatform(
  config: Config,
  target: { url: string; secrets: Secrets; label: string },
  timeoutMs: number,
): Promise<PlatformFindings> {
  const records: Array<RequestRecord & { receivedAt: number }> = [];
  const client = createConnectorClient({
    baseUrl: target.url,
    clientToken: target.secrets.clientToken,
    accessToken: target.secrets.accessToken,
    client: config.platform.client ?? clientName(),
    log: silentLogger,
    rateLimit: { requests: Math.max(1, Math.floor(config.platform.rateLimit.requests / 4)) },
    requestTimeoutMs: Math.min(config.platform.requestTimeoutMs, timeoutMs),
    retries: 0,
    onRequest: (record) => records.push({ ...record, receivedAt: Date.now() }),
  });
  const checks: Check[] = [];
  let devices: WireDevice[] | undefined;
  try {
    devices = await client.devices();
    const took = records.at(-1)?.durationMs;
    checks.push({
      id: 'platform',
      title: 'platform',
      status: 'ok',
      summary: `${target.label} answers${took === undefined ? '' : ` in ${took} ms`}; tokens accepted, ${devices.length} devices visible`,
    });
  } catch (error) {
    const e = toAgentError(error);
    checks.push({
      id: 'platform',
      title: 'platform',
      status: 'fail',
      summary: `${target.label}: ${e.message} (${e.code})`,
      fix: platformFix(e.code),
    });
  }
  checks.push(devicesCheck(config, devices));
  checks.push(clockCheck(records.find((r) => r.date)));
  return { checks, ...(devices ? { devices } : {}) };
}

function devicesCheck(config: Config, devices: WireDevice[] | undefined): Check {
  const title = 'platform devices';
  if (!devices)
    return { id: 'platform-devices', title, status: 'skip', summary: 'the platform did not answer' };
  const problems: string[] = [];
  for (const device of config.devices) {
    const found = devices.find((d) => d.Id === device.id);
    const name = device.name ? `${device.name} (${device.id})` : device.id;
    if (!found) problems.push(`${name} is not a device of this integration on the platform`);
    else if (found.Type !== device.type)
      problems.push(`${name} is a ${found.Type} on the platform, configured as ${device.type}`);
  }
  if (problems.length === 0) {
    return {
      id: 'platform-devices',
      title,
      status: 'ok',
      summary: `all ${config.devices.length} configured devices are known with their type`,
    };
  }
  return {
    id: 'platform-devices',
    title,
    status: 'fail',
    summary: problems.join('; '),
    details: devices.map((d) => `on the platform: ${d.Type} "${d.Name}" ${d.Id}`),
    fix: ['Use the platform’s Device id and type in devices[] of the configuration (the list is above).'],
  };
}

/** Skew beyond this is a failure: the platform's times (pickup, cursors) stop making sense. */
export const MAX_SKEW_SECONDS = 30;

/**
 * The platform's `Date` (whole seconds) against this PC's clock at the middle of the exchange.
 * Positive: this PC is behind.
 */
export function clockCheck(
  record: { date?: string; durationMs: number; receivedAt: number } | undefined,
): Check {
  const title = 'clock';
  const platformMs = record?.date ? Date.parse(record.date) : Number.NaN;
  if (!record || Number.isNaN(platformMs))
    return { id: 'clock', title, status: 'skip', summary: 'the platform sent no Date to compare with' };
  const localMs = record.receivedAt - record.durationMs / 2;
  // Date has whole seconds: the platform's instant lies somewhere in that second.
  const skewSeconds = (platformMs + 500 - localMs) / 1000;
  const said = `${Math.abs(skewSeconds).toFixed(1)} s ${skewSeconds >= 0 ? 'behind' : 'ahead of'} the platform`;
  if (Math.abs(skewSeconds) <= MAX_SKEW_SECONDS)
    return {
      id: 'clock',
      title,
      status: 'ok',
      summary: `this PC is ${said} (within ±${MAX_SKEW_SECONDS} s)`,
    };
  return {
    id: 'clock',
    title,
    status: 'fail',
    summary: `this PC is ${said}`,
    fix: [
      'Turn on network time: sudo timedatectl set-ntp true (timedatectl timesync-status shows the server); the fiscal printer keeps its own clock.',
    ],
  };
}
