import { resolve } from 'node:path';
import { type Config, loadConfig, type Secrets } from '../config.js';
import type { DriverRegistry } from '../drivers-api/types.js';
import { toAgentError } from '../errors.js';
import type { PlatformSimulator } from '../simulator/index.js';
import { agentVersion } from '../version.js';
import { checkDevices } from './check-config.js';
import { devicesDirectly, devicesFromAgent, probeAgent } from './doctor-devices.js';
import { checkDisk, checkJournal, checkSystemd } from './doctor-host.js';
import { checkPlatform, checkTokens } from './doctor-platform.js';
import { type Check, type DoctorReport, exitCodeOf, renderText, report } from './doctor-report.js';
import type { CliIo } from './io.js';
import type { JournalStatistics } from './journal-statistics.js';

export interface DoctorOptions {
  config: string;
  /** The systemd unit to look at (default frontdesk-agent.service). */
  unit?: string;
  /** Bound on each network step: the platform request, each device, the status page. */
  timeoutMs?: number;
}

/** The checklist, plus what the support bundle also wants to keep. */
export interface DoctorRun {
  report: DoctorReport;
  config?: Config;
  secrets: string[];
  journal?: JournalStatistics;
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
  const finish = async (extra: Partial<DoctorRun> = {}): Promise<DoctorRun> => {
    checks.push(await checkSystemd(unit, env));
    return { report: report(agentVersion(), options.config, new Date(), checks), secrets, ...extra };
  };

  let config: Config;
  try {
    config = loadConfig(options.config);
  } catch (error) {
    checks.push({
      id: 'config',
      title: 'configuration',
      status: 'fail',
      summary: toAgentError(error).message.replace(/\n/g, '; '),
      fix: [
        `Correct ${options.config} (config/agent.example.yaml documents every key), then run doctor again.`,
      ],
    });
    return finish();
  }
  const problems = await checkDevices(config, registry).catch((error: unknown) => [
    toAgentError(error).message,
  ]);
  checks.push(
    problems.length === 0
      ? {
          id: 'config',
          title: 'configuration',
          status: 'ok',
          summary: `valid: ${config.devices.length} devices, journal ${config.journal.path}`,
        }
      : {
          id: 'config',
          title: 'configuration',
          status: 'fail',
          summary: problems.join('; '),
          fix: [
            `Correct these paths in ${options.config} (the drivers' README files document their options).`,
          ],
        },
  );

  const tokens = checkTokens(config, env);
  checks.push(tokens.check);
  if (tokens.secrets) secrets.push(tokens.secrets.clientToken, tokens.secrets.accessToken);
  secrets.push(...tokens.extraSecrets);

  const { check: agentCheck, agent } = await probeAgent(
    config,
    tokens.extraSecrets[0],
    Math.min(timeoutMs, 3000),
  );

  let simulator: PlatformSimulator | undefined;
  try {
    const target = await platformTarget(config, tokens.secrets, agent?.snapshot.platform.url);
    if (target && 'simulator' in target) simulator = target.simulator;
    if (target) {
      secrets.push(target.secrets.clientToken, target.secrets.accessToken);
      checks.push(...(await checkPlatform(config, target, timeoutMs)).checks);
    } else {
      checks.push(
        {
          id: 'platform',
          title: 'platform',
          status: 'skip',
          summary: 'no tokens to ask it with (see tokens)',
        },
        { id: 'platform-devices', title: 'platform devices', status: 'skip', summary: 'no tokens' },
        { id: 'clock', title: 'clock', status: 'skip', summary: 'the platform was not asked' },
      );
    }
  } catch (error) {
    checks.push({
      id: 'platform',
      title: 'platform',
      status: 'fail',
      summary: toAgentError(error).message,
      fix: ['Check simulator.scenario in the configuration.'],
    });
  } finally {
    await simulator?.close().catch(() => undefined);
  }

  checks.push(agentCheck);
  try {
    checks.push(
      ...(agent
        ? devicesFromAgent(config, agent)
        : await devicesDirectly(config, registry, timeoutMs, secrets)),
    );
  } catch (error) {
    checks.push({
      id: 'device',
      title: 'devices',
      status: 'fail',
      summary: `the devices could not be checked: ${toAgentError(error).message}`,
      fix: ['Send a support bundle (frontdesk-agent support-bundle): this is a fault of the agent.'],
    });
  }
  const journal = checkJournal(config);
  checks.push(journal.check, checkDisk(config));
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
): Promise<Target | undefined> {
  if (!config.simulator?.enabled) {
    return secrets ? { url: config.platform.url, secrets, label: config.platform.url } : undefined;
  }
  const { loadScenario, startPlatformSimulator } = await import('../simulator/index.js');
  const scenario = config.simulator.scenario ? loadScenario(resolve(config.simulator.scenario)) : undefined;
  const { clientToken, accessToken } = scenario?.platform ?? {};
  if (runningPlatformUrl && clientToken && accessToken) {
    return {
      url: runningPlatformUrl,
      secrets: { clientToken, accessToken },
      label: `the running agent's embedded simulator at ${runningPlatformUrl}`,
    };
  }
  const simulator = await startPlatformSimulator({ port: 0, ...(scenario ? { scenario } : {}) });
  return {
    url: simulator.url,
    secrets: simulator.tokens,
    label: `an embedded simulator started by doctor at ${simulator.url} (demo)`,
    simulator,
  };
}

/** `doctor`: prints the checklist (or JSON) and exits with the number of failures. */
export async function doctorCommand(
  opts: DoctorOptions & { json: boolean },
  io: CliIo,
  registry: DriverRegistry,
): Promise<number> {
  const { report: result } = await runDoctor(opts, io.env, registry);
  io.stdout.write(opts.json ? `${JSON.stringify(result, null, 2)}\n` : renderText(result));
  return exitCodeOf(result);
}
