import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, release, tmpdir, type, uptime } from 'node:os';
import { join, resolve } from 'node:path';
import { create as createTar } from 'tar';
import { parse as parseYaml, stringify } from 'yaml';
import { localeOf } from '../config.js';
import type { DriverRegistry } from '../drivers-api/types.js';
import { defaultLocale } from '../messages/locale.js';
import { messageRenderer } from '../messages/render.js';
import { agentVersion } from '../version.js';
import { runDoctor } from './doctor.js';
import { renderText } from './doctor-report.js';
import { type CliIo, line } from './io.js';
import { readRecentLog } from './log-source.js';
import { bundleMessages } from './messages.js';
import { defaultAccountSerials, harvestJournal, Redactor, redactConfig } from './redact.js';

export interface SupportBundleOptions {
  config: string;
  output?: string | undefined;
  hours: number;
  logFile?: string | undefined;
  unit: string;
}

/**
 * `support-bundle`: one .tar.gz to send to support, holding the configuration (secrets taken
 * out), the last hours of log, the journal's figures (counts and times only, no content), each
 * device's status and doctor's checklist. Every file passes the same redaction (tokens, the
 * guests' names, phones and e-mails the journal holds, any e-mail address, international or
 * Italian phone number, codice fiscale or secret in a URL) before it is written. The archive is readable by its owner only.
 */
export async function supportBundleCommand(
  opts: SupportBundleOptions,
  io: CliIo,
  registry: DriverRegistry,
): Promise<number> {
  const now = new Date();
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const name = `frontdesk-agent-support-${stamp}`;
  const output = resolve(opts.output ?? `${name}.tar.gz`);

  const doctor = await runDoctor({ config: opts.config, unit: opts.unit }, io.env, registry);
  const personal =
    doctor.config && doctor.config.journal.path !== ':memory:'
      ? harvestJournal(resolve(doctor.config.journal.path))
      : new Set<string>();
  const facts = new Map(
    doctor.report.checks
      .filter((c) => c.id === 'device' && c.deviceId !== undefined)
      .map((c) => [c.deviceId as string, (c.facts ?? {}) as Record<string, unknown>]),
  );
  // A printer on its default account has its serial as password: the bundle takes it out.
  const serials = doctor.config ? await defaultAccountSerials(doctor.config.devices, registry, facts) : [];
  const redactor = new Redactor([...doctor.secrets, ...serials], personal);
  const log = await readRecentLog({
    logFile: opts.logFile,
    unit: opts.unit,
    hours: opts.hours,
    env: io.env,
    now: now.getTime(),
  });

  const files: Record<string, string> = {
    'README.txt': readme(opts, log.source, now),
    'manifest.json': json({
      kind: 'frontdesk-agent support bundle',
      version: agentVersion(),
      createdAt: now.toISOString(),
      config: opts.config,
      logSource: log.source,
      logHours: opts.hours,
      doctorFailures: doctor.report.failures,
      redaction: {
        tokens: doctor.secrets.length > 0,
        printerSerialsOnTheirDefaultAccount: serials.length,
        personalStringsFromJournal: personal.size,
        patterns: [
          'e-mail addresses',
          'international and Italian phone numbers',
          'codici fiscali',
          'secrets in URLs',
        ],
      },
    }),
    'config.yaml': configText(opts.config, doctor.config),
    'log.txt': log.text,
    'journal.json': json(doctor.journal ?? { note: 'no journal figures: see doctor.txt' }),
    'devices.json': json(
      doctor.report.checks
        .filter((c) => c.id === 'device')
        .map((c) => ({
          device: c.deviceId,
          title: c.title,
          status: c.status,
          summary: c.summary,
          facts: c.facts ?? {},
          fix: c.fix ?? [],
        })),
    ),
    'doctor.txt': renderText(doctor.report),
    'doctor.json': json(doctor.report),
    'system.json': json({
      hostname: hostname(),
      os: `${type()} ${release()}`,
      node: process.versions.node,
      uptimeSeconds: Math.round(uptime()),
    }),
  };

  const staging = mkdtempSync(join(tmpdir(), 'frontdesk-support-'));
  try {
    chmodSync(staging, 0o700);
    const dir = join(staging, name);
    mkdirSync(dir, { mode: 0o700 });
    for (const [file, content] of Object.entries(files)) {
      writeFileSync(join(dir, file), redactor.text(content), { mode: 0o600 });
    }
    await createTar({ gzip: true, file: output, cwd: staging, portable: true }, [name]);
    chmodSync(output, 0o600);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const kb = Math.ceil(statSync(output).size / 1024);
  // The files above are for support, in English; what the person running it reads is in theirs.
  const say = messageRenderer(
    doctor.config ? localeOf(doctor.config, io.env) : defaultLocale('', io.env),
    doctor.config?.timezone,
  );
  const failures = doctor.report.failures;
  line(io.stdout, say.render(bundleMessages.wrote({ output, kb })));
  line(io.stdout, say.render(bundleMessages.logSource({ source: log.source })));
  line(
    io.stdout,
    say.render(
      failures === 0 ? bundleMessages.doctorClean() : bundleMessages.doctorProblems({ count: failures }),
    ),
  );
  return 0;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The effective configuration (defaults filled in) when valid; the file as written otherwise. */
function configText(path: string, config: unknown): string {
  if (config) return stringify(redactConfig(config));
  try {
    return stringify(redactConfig(parseYaml(readFileSync(path, 'utf8'))));
  } catch (error) {
    return `# ${path} could not be read as YAML: ${(error as Error).message}\n`;
  }
}

function readme(opts: SupportBundleOptions, logSource: string, now: Date): string {
  return `frontdesk-agent support bundle, ${now.toISOString()}, version ${agentVersion()}

config.yaml     the configuration ${opts.config}, effective values, secrets taken out
log.txt         the log of the last ${opts.hours} hours; source: ${logSource}
journal.json    the journal's figures: integrity, sizes, commands by phase, state, kind and device, outbox
devices.json    each device's status and facts
doctor.txt      frontdesk-agent doctor's checklist (doctor.json: the same for tools)
system.json     host name, OS, Node.js version

Every file was redacted before it was written: tokens and secrets in URLs, the names, phones and
e-mail addresses of guests found in the journal, and any e-mail address, international or Italian
phone number and codice fiscale are replaced by [redacted], [guest], [phone], [email] and
[codice fiscale].
`;
}
