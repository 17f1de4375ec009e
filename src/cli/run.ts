import { createAgent } from '../agent/index.js';
import { auditFileOf, loadConfig, readCertificate, readTokenFile, resolveSecrets } from '../config.js';
import type { DriverRegistry } from '../drivers-api/types.js';
import { toAgentError } from '../errors.js';
import { createLogger } from '../log.js';
import { passedSockets, staffSocketPath } from '../status/sockets/index.js';
import { createNotifier, startWatchdog, watchdogInterval } from '../supervision/index.js';
import { type CliIo, firstSignal, line } from './io.js';

/**
 * `run`: the daemon. Starts the agent, tells systemd READY (and pings its watchdog only while the
 * agent is healthy), then waits for SIGTERM/SIGINT: the first stops gracefully within the
 * configured deadline and exits 0; a second aborts at once (exit 130). A failure to start
 * exits 1 with one clear line.
 */
export async function runCommand(
  opts: { config: string },
  io: CliIo,
  registry: DriverRegistry,
): Promise<number> {
  const config = loadConfig(opts.config);
  const redactions: string[] = [];
  const auditFile = auditFileOf(config);
  const log = createLogger({
    level: config.log.level,
    format: config.log.format,
    secrets: redactions,
    ...(auditFile ? { auditFile } : {}),
  });
  const secrets = config.simulator?.enabled ? undefined : resolveSecrets(config, io.env);
  const credentials = io.env.CREDENTIALS_DIRECTORY;
  const { accessTokenFile, metricsTokenFile, tls } = config.status;
  const statusAccessToken = accessTokenFile
    ? readTokenFile(accessTokenFile, 'status action token', credentials)
    : undefined;
  const statusMetricsToken = metricsTokenFile
    ? readTokenFile(metricsTokenFile, 'status metrics token', credentials)
    : undefined;
  // The key is a secret like the tokens (owner-only); the certificate is public.
  const statusTls = tls
    ? { key: readTokenFile(tls.keyFile, 'status TLS key', credentials), cert: readCertificate(tls.certFile) }
    : undefined;
  for (const secret of [statusAccessToken, statusMetricsToken]) if (secret) redactions.push(secret);
  const notifier = createNotifier(io.env.NOTIFY_SOCKET, { log });
  const staffSocket = staffSocketPath(config.status.staffSocket);
  const passed = passedSockets(io.env, process.pid);
  const agent = createAgent(config, {
    registry,
    log,
    redactions,
    ...(secrets ? { secrets } : {}),
    ...(statusAccessToken ? { statusAccessToken } : {}),
    ...(statusMetricsToken ? { statusMetricsToken } : {}),
    ...(statusTls ? { statusTls } : {}),
    staffSocket,
    ...(passed ? { passed } : {}),
    announce: (text) => line(io.stdout, text),
  });

  const unguard = io.onEscapedError?.((error, origin) => agent.reportEscaped(error, origin));
  let aborted = false;
  const stopped = firstSignal(io, () => {
    aborted = true;
    log.warn('second signal: stopping now');
    agent.abortNow();
  });
  try {
    await agent.start();
  } catch (error) {
    const e = toAgentError(error);
    log.error('the agent could not start', { code: e.code, error: e.message });
    notifier.status(`failed to start: ${e.code}`);
    await agent.stop(0);
    notifier.close();
    unguard?.();
    throw e;
  }
  notifier.ready('running');
  const interval = watchdogInterval(io.env, process.pid);
  const watchdog = interval
    ? startWatchdog({ notifier, intervalMs: interval, isHealthy: agent.alive, log })
    : undefined;

  const signal = await stopped;
  log.info('stopping', { signal, deadlineMs: config.shutdown.deadlineMs });
  notifier.stopping('stopping');
  watchdog?.stop();
  await agent.stop(config.shutdown.deadlineMs);
  notifier.close();
  unguard?.();
  return aborted ? 130 : 0;
}
