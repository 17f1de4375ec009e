import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Config, resolveSecrets, type Secrets } from '../config.js';
import type { RequestRecord } from '../connector/api.js';
import { createConnectorClient } from '../connector/client.js';
import type { WireDevice } from '../connector/wire.js';
import { toAgentError } from '../errors.js';
import { silentLogger } from '../log.js';
import type { Message } from '../messages/message.js';
import { type MessageRenderer, messageRenderer } from '../messages/render.js';
import { clientName } from '../version.js';
import type { Check } from './doctor-report.js';
import { doctorMessages as m } from './messages.js';

/**
 * Doctor's platform checks: the token sources and their file modes, one `devices/getAll` (the
 * platform answers, accepts the tokens, knows every configured device with its type) and the
 * clock skew read from that answer's `Date` header. Their words are in `say`'s language (English
 * unless told).
 */

const ENGLISH = messageRenderer('en');

/** A token source as `resolveSecrets` would use it (same order: file, credential, environment). */
interface TokenSource {
  what: Message;
  file?: string;
  env?: string;
  /** A systemd credential: root-managed, readable by the service alone; its mode is systemd's. */
  credential?: boolean;
}

function tokenSources(config: Config, env: NodeJS.ProcessEnv): TokenSource[] {
  const directory = env.CREDENTIALS_DIRECTORY;
  const inCredentials = (file: string) =>
    directory !== undefined && directory !== '' && resolve(file).startsWith(`${resolve(directory)}/`);
  const source = (what: Message, file: string | undefined, credential: string, envName: string) => {
    if (file) return { what, file: resolve(file), credential: inCredentials(file) };
    const fromCredentials = env.CREDENTIALS_DIRECTORY
      ? join(env.CREDENTIALS_DIRECTORY, credential)
      : undefined;
    if (fromCredentials && exists(fromCredentials)) return { what, file: fromCredentials, credential: true };
    return { what, env: envName };
  };
  const list: TokenSource[] = [
    source(m.clientToken(), config.platform.clientTokenFile, 'client-token', config.platform.clientTokenEnv),
    source(m.accessToken(), config.platform.accessTokenFile, 'access-token', config.platform.accessTokenEnv),
  ];
  if (config.status.accessTokenFile)
    list.push({
      what: m.statusPageToken(),
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
  say: MessageRenderer = ENGLISH,
): { check: Check; secrets?: Secrets; extraSecrets: string[] } {
  const title = say.render(m.titleTokens());
  if (config.simulator?.enabled) {
    return {
      check: { id: 'tokens', title, status: 'ok', summary: say.render(m.tokensDemo()) },
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
    const what = say.render(source.what);
    if (source.env) {
      details.push(say.render(m.tokenFromEnv({ what, env: source.env })));
      continue;
    }
    const file = source.file as string;
    let mode: number;
    try {
      mode = statSync(file).mode & 0o777;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      problems.push(say.render(m.tokenFileUnreadable({ what, file, code })));
      reported.push(file);
      fix.push(say.render(m.tokenFileFix({ file, what })));
      continue;
    }
    const octal = mode.toString(8).padStart(4, '0');
    details.push(say.render(m.tokenFile({ what, file, mode: octal })));
    if (mode & 0o077 && !source.credential) {
      problems.push(say.render(m.tokenFileOpen({ file, mode: octal })));
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
    if (fix.length === 0) fix.push(say.render(m.tokensInstallFix()));
  }
  const extraSecrets: string[] = [];
  if (config.status.accessTokenFile) {
    try {
      const value = readToken(config.status.accessTokenFile);
      if (value) extraSecrets.push(value);
      else problems.push(say.render(m.statusTokenEmpty({ file: config.status.accessTokenFile })));
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
          summary: say.render(m.tokensOk()),
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
export function platformFix(code: string): Message[] {
  switch (code) {
    case 'PLATFORM_AUTH':
      return [m.authFix()];
    case 'PLATFORM_UNREACHABLE':
    case 'PLATFORM_TIMEOUT':
      return [m.networkFix({ curl: CURL_PROBE }), m.meanwhileKept()];
    case 'PLATFORM_ERROR':
      return [m.serverErrorsFix()];
    case 'RATE_LIMITED':
      return [m.rateLimitedFix()];
    case 'PLATFORM_FORBIDDEN':
      return [m.forbiddenFix()];
    default:
      return [m.notConnectorFix()];
  }
}

/** The command that shows whether platform.url answers at all (a value: ICU would read its braces). */
const CURL_PROBE = 'curl -sS -o /dev/null -w "%{http_code}\\n" <platform.url>';

/**
 * One `devices/getAll` with a short timeout and no retries. Returns the platform, devices and
 * clock checks.
 */
export async function checkPlatform(
  config: Config,
  target: { url: string; secrets: Secrets; label: string },
  timeoutMs: number,
  say: MessageRenderer = ENGLISH,
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
    const seen = { label: target.label, count: devices.length };
    checks.push({
      id: 'platform',
      title: say.render(m.titlePlatform()),
      status: 'ok',
      summary: say.render(
        took === undefined ? m.platformAnswers(seen) : m.platformAnswersIn({ ...seen, ms: took }),
      ),
    });
  } catch (error) {
    const e = toAgentError(error);
    checks.push({
      id: 'platform',
      title: say.render(m.titlePlatform()),
      status: 'fail',
      summary: `${target.label}: ${e.message} (${e.code})`,
      fix: platformFix(e.code).map((fix) => say.render(fix)),
    });
  }
  checks.push(devicesCheck(config, devices, say));
  checks.push(
    clockCheck(
      records.find((r) => r.date),
      say,
    ),
  );
  return { checks, ...(devices ? { devices } : {}) };
}

function devicesCheck(config: Config, devices: WireDevice[] | undefined, say: MessageRenderer): Check {
  const title = say.render(m.titlePlatformDevices());
  if (!devices)
    return { id: 'platform-devices', title, status: 'skip', summary: say.render(m.platformSilent()) };
  const problems: string[] = [];
  for (const device of config.devices) {
    const found = devices.find((d) => d.Id === device.id);
    const name = device.name ? `${device.name} (${device.id})` : device.id;
    if (!found) problems.push(say.render(m.notOnPlatform({ name })));
    else if (found.Type !== device.type)
      problems.push(say.render(m.wrongType({ name, found: found.Type, configured: device.type })));
  }
  if (problems.length === 0) {
    return {
      id: 'platform-devices',
      title,
      status: 'ok',
      summary: say.render(m.devicesKnown({ count: config.devices.length })),
    };
  }
  return {
    id: 'platform-devices',
    title,
    status: 'fail',
    summary: problems.join('; '),
    details: devices.map((d) => say.render(m.onPlatform({ type: d.Type, name: d.Name, id: d.Id }))),
    fix: [say.render(m.devicesFix())],
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
  say: MessageRenderer = ENGLISH,
): Check {
  const title = say.render(m.titleClock());
  const platformMs = record?.date ? Date.parse(record.date) : Number.NaN;
  if (!record || Number.isNaN(platformMs))
    return { id: 'clock', title, status: 'skip', summary: say.render(m.noDate()) };
  const localMs = record.receivedAt - record.durationMs / 2;
  // Date has whole seconds: the platform's instant lies somewhere in that second.
  const skewSeconds = (platformMs + 500 - localMs) / 1000;
  const seconds = Math.abs(skewSeconds);
  const said = say.render(skewSeconds >= 0 ? m.clockBehind({ seconds }) : m.clockAhead({ seconds }));
  if (Math.abs(skewSeconds) <= MAX_SKEW_SECONDS)
    return {
      id: 'clock',
      title,
      status: 'ok',
      summary: say.render(m.withinSkew({ said, max: MAX_SKEW_SECONDS })),
    };
  return {
    id: 'clock',
    title,
    status: 'fail',
    summary: said,
    fix: [say.render(m.ntpFix())],
  };
}
