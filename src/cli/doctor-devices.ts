import { createDevices, startDeviceSimulators } from '../agent/device-drivers/index.js';
import { systemClock } from '../clock.js';
import { openJournal } from '../commands/index.js';
import type { Config, DeviceConfig } from '../config.js';
import type { DeviceStatus, DriverRegistry, PlatformReader, SimulatedDevice } from '../drivers-api/types.js';
import { AgentError, toAgentError } from '../errors.js';
import { createMemoryLogger } from '../log.js';
import { type Message, readMessage } from '../messages/message.js';
import { type MessageRenderer, messageRenderer } from '../messages/render.js';
import { queueMessages, waitingLines } from '../status/page/index.js';
import type { AgentSnapshot, Health } from '../status-model.js';
import { createTransportFactory } from '../transport/factory.js';
import { type Check, formatFacts } from './doctor-report.js';
import { doctorMessages as m } from './messages.js';
import { StaffLinkError, staffRequest, staffSocketOf } from './staff-link.js';

const ENGLISH = messageRenderer('en');

/**
 * Doctor's device checks. When the agent runs on this PC its status page answers, and the
 * devices are read from it: the agent holds them (a serial port opens once), and its view is the
 * one that matters. Otherwise doctor builds each configured driver itself, opens it, reads its
 * `status()` and closes it. Both paths judge a device the same way, from `DeviceStatus` only:
 * unreachable or any warning is a failure, and the warnings (written for staff) are the fix.
 */

export interface RunningAgent {
  url: string;
  snapshot: AgentSnapshot;
  health?: Health;
}

/** Where the status page of this config answers locally, or undefined (random port). */
export function statusBaseUrl(listen: string): string | undefined {
  const match = /^(.*):(\d+)$/.exec(listen);
  if (!match || match[2] === '0') return undefined;
  const host = match[1] as string;
  const local = host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' || host === '::' ? '[::1]' : host;
  return `http://${local}:${match[2]}`;
}

/**
 * Asks a running agent through its staff socket (staff-link.ts: no token is sent, the kernel says
 * who asks — doctor runs as the service user, as root, or as staff); says what it found as an
 * `info` check.
 */
export async function probeAgent(
  config: Config,
  timeoutMs: number,
  say: MessageRenderer = ENGLISH,
): Promise<{ check: Check; agent?: RunningAgent }> {
  const title = say.render(m.titleAgent());
  const base = statusBaseUrl(config.status.listen);
  if (!base) {
    return {
      check: {
        id: 'agent',
        title,
        status: 'info',
        summary: say.render(m.agentNotProbed({ listen: config.status.listen })),
      },
    };
  }
  const socket = staffSocketOf(config);
  const get = (path: string) =>
    staffRequest(socket, config.status.staffGroup, {
      method: 'GET',
      path,
      timeoutMs,
      maxBytes: 16 * 1024 * 1024,
    });
  try {
    const answer = await get('/status.json');
    if (answer.status === 401 || answer.status === 403) {
      return {
        check: {
          id: 'agent',
          title,
          status: 'info',
          summary: say.render(m.agentRefused({ base, status: answer.status })),
        },
      };
    }
    const snapshot = JSON.parse(answer.body.toString('utf8')) as AgentSnapshot;
    if (answer.status !== 200 || !Array.isArray(snapshot.devices) || typeof snapshot.version !== 'string')
      throw new Error(`not a frontdesk-agent status page (HTTP ${answer.status})`);
    const healthAnswer = await get('/healthz').catch(() => undefined);
    let health: Health | undefined;
    if (healthAnswer) {
      const body = JSON.parse(healthAnswer.body.toString('utf8')) as { ok?: boolean; reasons?: string[] };
      health = { ok: body.ok === true, reasons: (body.reasons ?? []).map(readMessage) };
    }
    const since = new Date(snapshot.startedAt).toISOString().replace(/\.\d+Z$/, 'Z');
    const check: Check = {
      id: 'agent',
      title,
      status: 'info',
      summary: say.render(
        m.agentRunning({
          base,
          version: snapshot.version,
          since,
          health: health ? (health.ok ? 'healthy' : 'unhealthy') : 'unknown',
        }),
      ),
      details: [
        say.render(
          snapshot.platform.lastSuccessAt === undefined
            ? m.agentPlatformNever({ mode: snapshot.platform.mode, pending: snapshot.outbox.pending })
            : m.agentPlatformAgo({
                mode: snapshot.platform.mode,
                seconds: Math.round((snapshot.now - snapshot.platform.lastSuccessAt) / 1000),
                pending: snapshot.outbox.pending,
              }),
        ),
        // What waits and why, in the page's words (its Waiting section): the same counts.
        ...waitingLines(snapshot).map((line) =>
          say.render(line.why ? queueMessages.line({ what: line.what, why: line.why }) : line.what),
        ),
        ...(health?.reasons ?? []).map((r) => say.render(m.unhealthyReason({ reason: say.render(r) }))),
      ],
    };
    return { check, agent: { url: base, snapshot, ...(health ? { health } : {}) } };
  } catch (error) {
    if (error instanceof StaffLinkError && error.reason !== 'absent') {
      return { check: { id: 'agent', title, status: 'info', summary: say.render(error.notes) } };
    }
    return {
      check: {
        id: 'agent',
        title,
        status: 'info',
        summary: say.render(m.agentAbsent({ base, error: (error as Error).message })),
      },
    };
  }
}

function deviceTitle(device: DeviceConfig, say: MessageRenderer): string {
  return say.render(m.titleDevice({ name: device.name ?? device.id }));
}

/** The verdict on one device from its status (and the error of opening it, if any). */
export function judgeDevice(
  device: DeviceConfig,
  status: DeviceStatus | undefined,
  openError: AgentError | undefined,
  source: string,
  say: MessageRenderer = ENGLISH,
): Check {
  const words = (text: Message) => say.render(text);
  const base = {
    id: 'device',
    title: deviceTitle(device, say),
    deviceId: device.id,
    ...(status ? { facts: status.facts } : {}),
  };
  const details = [say.render(m.deviceFacts({ type: device.type, driver: device.driver, source }))];
  const facts = status ? formatFacts(status.facts, device.driver, say, Date.now()) : '';
  if (facts) details.push(facts);
  if (openError || !status?.connected) {
    const summary = openError
      ? `${openError.message}${status?.summary ? ` (${words(status.summary)})` : ''}`
      : say.render(
          m.notReachable({ summary: status?.summary ? words(status.summary) : say.render(m.noStatus()) }),
        );
    const fix = [
      say.render(openError ? openError.notes : m.switchOnFix()),
      say.render(m.optionsFix({ driver: device.driver })),
      ...(status?.warnings ?? []).map(words),
    ];
    return { ...base, status: 'fail', summary, details, fix };
  }
  if (status.warnings.length > 0) {
    return {
      ...base,
      status: 'fail',
      summary: words(status.summary),
      details,
      fix: status.warnings.map(words),
    };
  }
  return { ...base, status: 'ok', summary: words(status.summary), details };
}

/** Device checks from a running agent's snapshot. */
export function devicesFromAgent(
  config: Config,
  agent: RunningAgent,
  say: MessageRenderer = ENGLISH,
): Check[] {
  return config.devices.map((device) => {
    const seen = agent.snapshot.devices.find((d) => d.id === device.id);
    if (!seen) {
      return {
        id: 'device',
        title: deviceTitle(device, say),
        deviceId: device.id,
        status: 'fail',
        summary: say.render(m.notInAgent()),
        fix: [say.render(m.restartFix())],
      };
    }
    return judgeDevice(device, seen.status, undefined, say.render(m.seenByAgent()), say);
  });
}

const noBills: PlatformReader = {
  orderItems: () => Promise.reject(new AgentError('INTERNAL', 'doctor reads no bills')),
  payments: () => Promise.reject(new AgentError('INTERNAL', 'doctor reads no bills')),
};

/**
 * Builds, opens, reads and closes every configured driver (in parallel, each within
 * `timeoutMs`). Demo configs (`simulator.devices`) get their device simulators started first, as
 * `run` does. Drivers write into a throw-away in-memory journal, never into the agent's.
 */
export async function devicesDirectly(
  config: Config,
  registry: DriverRegistry,
  timeoutMs: number,
  secrets: readonly string[],
  say: MessageRenderer = ENGLISH,
): Promise<Check[]> {
  const log = createMemoryLogger({ level: 'warn', secrets });
  let simulators: SimulatedDevice[] = [];
  const journal = openJournal(':memory:');
  try {
    if (config.simulator?.enabled && config.simulator.devices) {
      try {
        simulators = await startDeviceSimulators(config, registry, log);
      } catch (error) {
        log.warn('device simulators could not start', { error: toAgentError(error).message });
      }
    }
    return await Promise.all(
      config.devices.map((device) => openAndRead(config, device, registry, journal, timeoutMs, log, say)),
    );
  } finally {
    await Promise.all(simulators.map((s) => s.close().catch(() => undefined)));
    journal.close();
  }
}

async function openAndRead(
  config: Config,
  device: DeviceConfig,
  registry: DriverRegistry,
  journal: ReturnType<typeof openJournal>,
  timeoutMs: number,
  log: ReturnType<typeof createMemoryLogger>,
  say: MessageRenderer,
): Promise<Check> {
  const source = say.render(m.openedByDoctor());
  let built: Awaited<ReturnType<typeof createDevices>>[number] | undefined;
  try {
    [built] = await createDevices(
      { ...config, devices: [device] },
      {
        registry,
        journal,
        platform: noBills,
        io: createTransportFactory({ log }),
        clock: systemClock,
        log,
      },
    );
  } catch (error) {
    return {
      id: 'device',
      title: deviceTitle(device, say),
      deviceId: device.id,
      status: 'skip',
      summary: say.render(m.notChecked({ error: toAgentError(error).message.replace(/\s+/g, ' ') })),
    };
  }
  if (!built) throw new AgentError('INTERNAL', 'createDevices built nothing');
  const driver = built.driver;
  let openError: AgentError | undefined;
  try {
    await driver.open(AbortSignal.timeout(timeoutMs));
  } catch (error) {
    openError = toAgentError(error);
  }
  const status = driver.status();
  await driver.close().catch(() => undefined);
  const check = judgeDevice(device, status, openError, source, say);
  const said = log.lines.filter((line) => line.includes(built.name));
  if (said.length > 0) check.details = [...(check.details ?? []), ...said.map((l) => `log: ${l}`)];
  return check;
}
