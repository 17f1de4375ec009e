import { resolve } from 'node:path';
import { type Config, loadConfig, localeOf, type Secrets } from '../config.js';
import type { DriverRegistry } from '../drivers-api/types.js';
import { toAgentError } from '../errors.js';
import type { Locale } from '../messages/catalogue.js';
import { defaultLocale } from '../messages/locale.js';
import { type MessageRenderer, messageRenderer } from '../messages/render.js';
import type { PlatformSimulator } from '../platform-simulator/index.js';
import { agentVersion } from '../version.js';
import { checkDevices } from './check-config.js';
import { devicesDirectly, devicesFromAgent, probeAgent } from './doctor-devices.js';
import { checkDisk, checkJournal, checkSystemd } from './doctor-host.js';
import { checkPlatform, checkTokens } from './doctor-platform.js';
import { type Check, type DoctorReport, exitCodeOf, renderText, report } from './doctor-report.js';
import type { CliIo } from './io.js';
import type { JournalStatistics } from './journal-statistics.js';
import { doctorMessages } from './messages.js';

export interface DoctorOptions {
  config: string;
  /** The systemd unit to look at (default frontdesk-agent.service). */
  unit?: string;
  /** Bound on each network step: the platform request, each device, the status page. */
  timeoutMs?: number;
  /**
   * The checklist's language: `configured` is what staff read (`locale`, else `defaultLocale`'s
   * rule); the default, English, is what support and tools read (the support bundle, `--json`).
   */
  locale?: Locale | 'configured';
}

/** The checklist, plus what the support bundle also wants to keep. */
export interface DoctorRun {
  report: DoctorReport;
  config?: Config;
  secrets: string[];
  journal?: JournalStatistics;
  /** The renderer of the checklist's language, for printing it. */
  say: MessageRenderer;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Runs every check in order: configuration; tokens and their file modes; the platform (answers,
 * accepts the tokens, knows every device with its type); the clock against the platform's
 * `Date`; the running agent, if any; each device; the journal and the free disk; the systemd
 * unit. Never throws: a step that cannot run is a failed or skipped check.
 */
export async function runDoctor(
  options: DoctorOptions,
  env: NodeJS.ProcessEnv,
  registry: DriverRegistry,
): Promise<DoctorRun> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const unit = options.unit ?? 'frontdesk-agent.service';
  const checks: Check[] = [];
  const secrets: string[] = [];
  const wanted = options.locale ?? 'en';
  let say = messageRenderer(wanted === 'configured' ? defaultLocale('', env) : wanted);
  const finish = async (extra: Partial<DoctorRun> = {}): Promise<DoctorRun> => {
    checks.push(await checkSystemd(unit, env, say));
    return { report: report(agentVersion(), options.config, new Date(), checks), secrets, say, ...extra };
  };

  let config: Config;
  try {
    config = loadConfig(options.config);
  } catch (error) {
    checks.push({
      id: 'config',
      title: say.render(doctorMessages.titleConfig()),
      status: 'fail',
      summary: toAgentError(error).message.replace(/\n/g, '; '),
      fix: [say.render(doctorMessages.configFix({ config: options.config }))],
    });
    return finish();
  }
  if (wanted === 'configured') say = messageRenderer(localeOf(config, env), config.timezone);
  const problems = await checkDevices(config, registry).catch((error: unknown) => [
    toAgentError(error).message,
  ]);
  checks.push(
    problems.length === 0
      ? {
          id: 'config',
          title: say.render(doctorMessages.titleConfig()),
          status: 'ok',
          summary: say.render(
            doctorMessages.configValid({ count: config.devices.length, journal: config.journal.path }),
          ),
        }
      : {
          id: 'config',
          title: say.render(doctorMessages.titleConfig()),
          status: 'fail',
          summary: problems.join('; '),
          fix: [say.render(doctorMessages.configPathsFix({ config: options.config }))],
        },
  );

  const tokens = checkTokens(config, env, say);
  checks.push(tokens.check);
  if (tokens.secrets) secrets.push(tokens.secrets.clientToken, tokens.secrets.accessToken);
  secrets.push(...tokens.extraSecrets);

  const { check: agentCheck, agent } = await probeAgent(config, Math.min(timeoutMs, 3000), say);

  let simulator: PlatformSimulator | undefined;
  try {
    const target = await platformTarget(config, tokens.secrets, agent?.snapshot.platform.url, say);
    if (target && 'simulator' in target) simulator = target.simulator;
    if (target) {
      secrets.push(target.secrets.clientToken, target.secrets.accessToken);
      checks.push(...(await checkPlatform(config, target, timeoutMs, say)).checks);
    } else {
      // Without tokens there is nothing to ask the platform: its three checks are skipped.
      const skipped = (id: string, title: string, summary: string): Check => ({
        id,
        title,
        status: 'skip',
        summary,
      });
      checks.push(
        skipped(
          'platform',
          say.render(doctorMessages.titlePlatform()),
          say.render(doctorMessages.noTokensToAsk()),
        ),
        skipped(
          'platform-devices',
          say.render(doctorMessages.titlePlatformDevices()),
          say.render(doctorMessages.noTokens()),
        ),
        skipped(
          'clock',
          say.render(doctorMessages.titleClock()),
          say.render(doctorMessages.platformNotAsked()),
        ),
      );
    }
  } catch (error) {
    checks.push({
      id: 'platform',
      title: say.render(doctorMessages.titlePlatform()),
      status: 'fail',
      summary: toAgentError(error).message,
      fix: [say.render(doctorMessages.scenarioFix())],
    });
  } finally {
    await simulator?.close().catch(() => undefined);
  }

  checks.push(agentCheck);
  try {
    checks.push(
      ...(agent
        ? devicesFromAgent(config, agent, say)
        : await devicesDirectly(config, registry, timeoutMs, secrets, say)),
    );
  } catch (error) {
    checks.push({
      id: 'device',
      title: say.render(doctorMessages.titleDevices()),
      status: 'fail',
      summary: say.render(doctorMessages.devicesUnchecked({ error: toAgentError(error).message })),
      fix: [say.render(doctorMessages.agentFaultFix())],
    });
  }
  const journal = checkJournal(config, say);
  checks.push(journal.check, checkDisk(config, say));
  return finish({ config, ...(journal.statistics ? { journal: journal.statistics } : {}) });
}

type Target = { url: string; secrets: Secrets; label: string; simulator?: PlatformSimulator };

/**
 * Which platform to ask, with which tokens. A demo config (`simulator.enabled`) has no platform
 * of its own: doctor asks the running agent's embedded simulator with the scenario's tokens, or,
 * when no agent runs, starts one from the scenario as `run` would.
 */
async function platformTarget(
  config: Config,
  secrets: Secrets | undefined,
  runningPlatformUrl: string | undefined,
  say: MessageRenderer,
): Promise<Target | undefined> {
  if (!config.simulator?.enabled) {
    return secrets ? { url: config.platform.url, secrets, label: config.platform.url } : undefined;
  }
  const { loadScenario, startPlatformSimulator } = await import('../platform-simulator/index.js');
  const scenario = config.simulator.scenario ? loadScenario(resolve(config.simulator.scenario)) : undefined;
  const { clientToken, accessToken } = scenario?.platform ?? {};
  if (runningPlatformUrl && clientToken && accessToken) {
    return {
      url: runningPlatformUrl,
      secrets: { clientToken, accessToken },
      label: say.render(doctorMessages.runningSimulator({ url: runningPlatformUrl })),
    };
  }
  const simulator = await startPlatformSimulator({ port: 0, ...(scenario ? { scenario } : {}) });
  return {
    url: simulator.url,
    secrets: simulator.tokens,
    label: say.render(doctorMessages.doctorSimulator({ url: simulator.url })),
    simulator,
  };
}

/** `doctor`: prints the checklist (or JSON) and exits with the number of failures. */
export async function doctorCommand(
  opts: DoctorOptions & { json: boolean },
  io: CliIo,
  registry: DriverRegistry,
): Promise<number> {
  const { report: result, say } = await runDoctor(
    { ...opts, locale: opts.json ? 'en' : 'configured' },
    io.env,
    registry,
  );
  io.stdout.write(opts.json ? `${JSON.stringify(result, null, 2)}\n` : renderText(result, say));
  return exitCodeOf(result);
}
