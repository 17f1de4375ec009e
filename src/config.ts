import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { AgentError, unreadableFile } from './errors.js';
import { isLoopback } from './loopback.js';
import { LOCALES, type Locale } from './messages/catalogue.js';
import { defaultLocale, systemLocale } from './messages/locale.js';
import { formatIssues } from './zod-issues.js';

/**
 * The agent's configuration: one zod schema gives the type and the validation. A loaded config
 * is deep-frozen and passed down; nothing reads it from a global. Tokens are never inline: they
 * come from a file, an environment variable or a systemd credential, and are resolved into
 * `Secrets` separately so that the config object can be shown and logged safely.
 */

const listen = z
  .string()
  .regex(/^(\[[0-9a-fA-F:]+\]|[\w.-]+):\d{1,5}$/, 'expected host:port, e.g. 127.0.0.1:8720');

export const DeviceConfigSchema = z.object({
  /** The platform's Device id. */
  id: z.string().min(1),
  name: z.string().min(1).optional(),
  type: z.enum(['FiscalMachine', 'KeyCutter', 'Printer']),
  driver: z.string().min(1),
  /** The driver's own options, validated by the driver's schema. */
  options: z.record(z.string(), z.unknown()).default({}),
});
export type DeviceConfig = z.infer<typeof DeviceConfigSchema>;

export const ConfigSchema = z
  .object({
    version: z.literal(1),
    platform: z.object({
      url: z.url(),
      websocketUrl: z.url().optional(),
      /** "name version" sent as `Client`; defaults to frontdesk-agent and its version. */
      client: z.string().min(1).optional(),
      clientTokenFile: z.string().min(1).optional(),
      accessTokenFile: z.string().min(1).optional(),
      /** Environment variables holding the tokens (used when no file is given). */
      clientTokenEnv: z.string().min(1).default('FRONTDESK_CLIENT_TOKEN'),
      accessTokenEnv: z.string().min(1).default('FRONTDESK_ACCESS_TOKEN'),
      enterpriseIds: z.array(z.string().min(1)).max(1000).default([]),
      rateLimit: z
        .object({
          requests: z.number().int().min(1).default(200),
          windowSeconds: z.number().positive().default(30),
          /** Fraction of the limit left for other software using the same access token. */
          reserveShare: z.number().min(0).max(0.9).default(0),
          /**
           * The longest a 429's `Retry-After` may silence the agent; then one probe request.
           * Default 300 (5 minutes).
           */
          maxRetryAfterSeconds: z.number().int().min(1).max(86_400).default(300),
        })
        .default({ requests: 200, windowSeconds: 30, reserveShare: 0, maxRetryAfterSeconds: 300 }),
      requestTimeoutMs: z.number().int().min(100).default(15000),
    }),
    poll: z
      .object({
        intervalMs: z.number().int().min(100).default(2000),
        /** Safety-net catch-up while the WebSocket is up. */
        safetyNetMs: z.number().int().min(1000).default(60000),
        /** How far back `fiscalMachineCommands/getAll` looks (≤ 3 months). */
        fiscalLookbackHours: z
          .number()
          .positive()
          .max(24 * 90)
          .default(72),
        /**
         * Period of the deep catch-up: Pending fiscal commands over the whole 3-month window, so
         * one older than `fiscalLookbackHours` is never lost (also once at start).
         */
        deepCatchUpHours: z
          .number()
          .min(0.1)
          .max(24 * 7)
          .default(6),
      })
      .default({ intervalMs: 2000, safetyNetMs: 60000, fiscalLookbackHours: 72, deepCatchUpHours: 6 }),
    /**
     * Where this agent stands in a hotel group: added as `property` and `desk` labels to every
     * metric, so one Prometheus can scrape many desks (see monitoring/README.md).
     */
    site: z
      .object({
        property: z.string().min(1).max(100).optional(),
        desk: z.string().min(1).max(100).optional(),
      })
      .optional(),
    timezone: z
      .string()
      .default('Europe/Rome')
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, 'unknown time zone'),
    /**
     * The language staff read: the platform's Notes, the status page, the command line's words
     * for people. Default: from the time zone, else the system locale (`localeOf`). Log lines
     * stay English.
     */
    locale: z.enum(LOCALES).optional(),
    journal: z.object({ path: z.string().min(1) }),
    status: z
      .object({
        listen: listen.default('127.0.0.1:8720'),
        /**
         * The desk's action token: IT's login to the page (the form at /login) and scripts'
         * `Authorization: Bearer …`, which may act. From beyond loopback only over HTTPS (`tls`).
         */
        accessTokenFile: z.string().min(1).optional(),
        /** A read-only token for `/metrics` and `/healthz` (Prometheus), one per desk. */
        metricsTokenFile: z.string().min(1).optional(),
        /** Serve the page over HTTPS: a PEM certificate and its key (owner-only, or a credential). */
        tls: z
          .object({ certFile: z.string().min(1), keyFile: z.string().min(1) })
          .strict()
          .optional(),
        /**
         * The staff socket: the command line's way in (`report`, `void`, `login`), for root, the
         * service and members of `staffGroup` (src/status/sockets/staff-socket.ts). Default, for the
         * agent and the command line alike: /run/frontdesk-agent/staff.sock (`staffSocketPath`).
         */
        staffSocket: z.string().min(1).max(100).optional(),
        /** The Unix group of the desk's staff (systemd/install.sh creates it). */
        staffGroup: z
          .string()
          .regex(/^[a-z_][a-z0-9_-]{0,31}$/, 'a Unix group name')
          .default('frontdesk-staff'),
        /** Actions from the page (and `cut-keys`): bounded, rate-limited, audited. */
        actions: z
          .object({
            /** Most keys one cut-keys action may ask for. */
            maxKeyCount: z.number().int().min(1).max(100).default(10),
            /** Most actions from one caller in any 60 seconds; beyond it the page answers 429. */
            perMinute: z.number().int().min(1).max(600).default(10),
          })
          .default({ maxKeyCount: 10, perMinute: 10 }),
      })
      .default({
        listen: '127.0.0.1:8720',
        staffGroup: 'frontdesk-staff',
        actions: { maxKeyCount: 10, perMinute: 10 },
      }),
    log: z
      .object({
        level: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
        format: z.enum(['plain', 'json']).default('plain'),
        /**
         * Where every `audit=` line also goes, out of reach of journald's rate limit
         * (src/audit-file.ts). Default: `audit.log` beside the journal (none for `:memory:`).
         */
        auditFile: z.string().min(1).optional(),
      })
      .default({ level: 'info', format: 'plain' }),
    shutdown: z.object({ deadlineMs: z.number().int().min(0).default(20000) }).default({ deadlineMs: 20000 }),
    /** `npm start` embeds the platform simulator; never set this on a real site. */
    simulator: z
      .object({
        enabled: z.boolean().default(false),
        scenario: z.string().optional(),
        port: z.number().int().min(0).max(65535).default(0),
        /** Also start the device simulators of the real drivers that offer one (`DriverFactory.simulate`). */
        devices: z.boolean().default(false),
        /**
         * The simulator's seed. Default: a new one at every start, so the commands of this run
         * never reuse the ids of an earlier run that the kept journal already knows.
         */
        seed: z.number().int().min(0).optional(),
      })
      .optional(),
    devices: z.array(DeviceConfigSchema).default([]),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.devices.forEach((d, i) => {
      if (seen.has(d.id))
        ctx.addIssue({ code: 'custom', path: ['devices', i, 'id'], message: 'duplicate device id' });
      seen.add(d.id);
    });
    for (const [key, secure, plain] of [
      ['url', 'https:', 'http:'],
      ['websocketUrl', 'wss:', 'ws:'],
    ] as const) {
      const problem = platformUrlProblem(c.platform[key], secure, plain);
      if (problem) ctx.addIssue({ code: 'custom', path: ['platform', key], message: problem });
    }
    const host = c.status.listen.replace(/:\d+$/, '');
    if (!isLoopback(host) && !c.status.accessTokenFile && !c.status.metricsTokenFile) {
      ctx.addIssue({
        code: 'custom',
        path: ['status', 'metricsTokenFile'],
        message: 'a metrics or action token is required when status.listen is not a loopback address',
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

/** The configured `locale`, or the default rule's (`src/messages/locale.ts`). */
export function localeOf(
  config: Pick<Config, 'locale' | 'timezone'>,
  env: NodeJS.ProcessEnv = process.env,
): Locale {
  return config.locale ?? defaultLocale(config.timezone, env);
}

/**
 * The language of the login greeting — the one-time address `npm start` and `frontdesk-agent login`
 * print for the person at the terminal (issue 41, item 4): the configured `locale`, else the
 * terminal's own (`LC_ALL`, `LC_MESSAGES`, `LANG`), never the time zone. The zone says which
 * language the hotel's receptionists read in Notes and on the page; the person who just typed the
 * command reads their terminal's.
 */
export function greetingLocaleOf(
  config: { locale?: Locale | undefined },
  env: NodeJS.ProcessEnv = process.env,
): Locale {
  return config.locale ?? systemLocale(env);
}

/** The audit file (`log.auditFile`), by default `audit.log` in the journal's directory. */
export function auditFileOf(config: Pick<Config, 'log' | 'journal'>): string | undefined {
  if (config.log.auditFile) return config.log.auditFile;
  return config.journal.path === ':memory:' ? undefined : join(dirname(config.journal.path), 'audit.log');
}

/**
 * The platform is reached over TLS: `https://` (`wss://`), or plain `http://` (`ws://`) only on
 * this machine (127.0.0.0/8, ::1, localhost: the simulator, a local test double). The tokens
 * travel in every request body and in the WebSocket cookie.
 */
function platformUrlProblem(url: string | undefined, secure: string, plain: string): string | undefined {
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // z.url() reports it
  }
  if (parsed.protocol === secure) return undefined;
  if (parsed.protocol === plain) {
    return isLoopback(parsed.hostname)
      ? undefined
      : `${plain}// sends the tokens unencrypted; use ${secure}// (${plain}// is allowed only for 127.0.0.0/8, ::1 and localhost)`;
  }
  return `expected a ${secure}// address`;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Validates an already-parsed document. Rejects with CONFIG_INVALID naming every bad path. */
export function parseConfig(document: unknown): Config {
  const result = ConfigSchema.safeParse(document);
  if (!result.success) {
    throw new AgentError('CONFIG_INVALID', `Invalid configuration:\n${formatIssues(result.error)}`);
  }
  return deepFreeze(result.data);
}

/** Reads and validates a YAML config file. Relative paths inside stay relative to the cwd. */
export function loadConfig(path: string): Config {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new AgentError('CONFIG_INVALID', `Cannot read configuration file ${path}: ${(e as Error).message}`);
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (e) {
    throw new AgentError(
      'CONFIG_INVALID',
      `Configuration file ${path} is not valid YAML: ${(e as Error).message}`,
    );
  }
  return parseConfig(document);
}

export interface Secrets {
  clientToken: string;
  accessToken: string;
}

/**
 * Reads a token file the way `ssh` reads a private key: refused (CONFIG_INVALID) when anyone but
 * its owner may access it (any group or other permission bit), since every local user could
 * then act as the agent on the platform. Returns the trimmed content; rejects when it is empty.
 * The error names the file and the fix, never the content. A file inside `credentialsDirectory`
 * (systemd's `$CREDENTIALS_DIRECTORY`, root-managed, readable by the service alone) is not checked.
 */
export function readTokenFile(path: string, what: string, credentialsDirectory?: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw unreadableFile(`the ${what} file ${path}`, e);
  }
  try {
    const mode = fstatSync(fd).mode & 0o777;
    const credential =
      credentialsDirectory !== undefined &&
      credentialsDirectory !== '' &&
      resolve(path).startsWith(`${resolve(credentialsDirectory)}/`);
    if ((mode & 0o077) !== 0 && !credential) {
      throw new AgentError(
        'CONFIG_INVALID',
        `The ${what} file ${path} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}); the agent refuses it. Run: chmod 600 ${path}`,
      );
    }
    const value = readFileSync(fd, 'utf8').trim();
    if (!value) throw new AgentError('CONFIG_INVALID', `The ${what} file ${path} is empty`);
    return value;
  } finally {
    closeSync(fd);
  }
}

/** A PEM certificate (`status.tls.certFile`); CONFIG_INVALID naming the file when unreadable or not PEM. */
export function readCertificate(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw unreadableFile(`the status TLS certificate ${path}`, e);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new AgentError('CONFIG_INVALID', `The status TLS certificate ${path} is not a PEM certificate`);
  return text;
}

/**
 * Resolves the tokens: from the configured files (owner-only, see `readTokenFile`), else from
 * `$CREDENTIALS_DIRECTORY/client-token` and `access-token` (systemd LoadCredential), else from the
 * configured environment variables. Rejects with CONFIG_INVALID naming the source, never the value.
 */
export function resolveSecrets(config: Config, env: NodeJS.ProcessEnv): Secrets {
  const read = (file: string | undefined, credential: string, envName: string, what: string): string => {
    if (file) return readTokenFile(file, what, env.CREDENTIALS_DIRECTORY);
    if (env.CREDENTIALS_DIRECTORY) {
      const candidate = join(env.CREDENTIALS_DIRECTORY, credential);
      let value: string | undefined;
      try {
        value = readFileSync(candidate, 'utf8').trim();
      } catch {
        // No such credential: the environment may still have the token.
      }
      if (value === '') throw new AgentError('CONFIG_INVALID', `The ${what} file ${candidate} is empty`);
      if (value) return value;
    }
    const fromEnv = env[envName]?.trim();
    if (fromEnv) return fromEnv;
    throw new AgentError(
      'CONFIG_INVALID',
      `No ${what}: set platform.${what === 'client token' ? 'clientTokenFile' : 'accessTokenFile'}, a systemd credential "${credential}", or the environment variable ${envName}`,
    );
  };
  return {
    clientToken: read(
      config.platform.clientTokenFile,
      'client-token',
      config.platform.clientTokenEnv,
      'client token',
    ),
    accessToken: read(
      config.platform.accessTokenFile,
      'access-token',
      config.platform.accessTokenEnv,
      'access token',
    ),
  };
}
