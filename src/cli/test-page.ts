import { hostname } from 'node:os';
import { systemClock } from '../clock.js';
import { type Config, loadConfig, localeOf } from '../config.js';
import type { Driver, DriverRegistry, ExecuteContext, Job } from '../drivers-api/types.js';
import { AgentError, isAgentError } from '../errors.js';
import { createLogger } from '../log.js';
import { readMessage } from '../messages/message.js';
import { messageRenderer } from '../messages/render.js';
import { tinyPdf } from '../platform-simulator/pdf.js';
import { createTransportFactory } from '../transport/factory.js';
import { createHttpClient } from '../transport/http.js';
import { formatIssues } from '../zod-issues.js';
import { type CliIo, firstSignal, line } from './io.js';

/** The one-page PDF the agent prints as a test page: who printed it, where, and when. */
export function testPagePdf(device: { id: string; name: string }, printer: string, at: Date): Buffer {
  return tinyPdf([
    'frontdesk-agent test page',
    '',
    `Device: ${device.name} (${device.id})`,
    `Printer: ${printer || 'the default printer'}`,
    `Computer: ${hostname()}`,
    `Printed: ${at.toISOString().replace('T', ' ').slice(0, 19)} UTC`,
    '',
    'If you can read this, the agent prints on this printer.',
  ]);
}

function deviceOf(config: Config, id: string) {
  const device = config.devices.find((d) => d.id === id);
  if (!device) {
    const known = config.devices.filter((d) => d.type === 'Printer').map((d) => d.id);
    throw new AgentError(
      'CONFIG_INVALID',
      `No device ${id} in the configuration${known.length > 0 ? ` (printers: ${known.join(', ')})` : ''}`,
    );
  }
  if (device.type !== 'Printer')
    throw new AgentError('CONFIG_INVALID', `Device ${id} is a ${device.type}, not a Printer`);
  return device;
}

/**
 * `test-page`: prints a one-page PDF the agent makes on a configured Printer device, through the
 * device's own driver (the same path as a platform command, without the platform). `--printer`
 * picks a platform printer name; by default the driver's default printer. Exit 0 when the printer
 * says it printed; 1 with the reason otherwise. Ctrl-C cancels the job.
 */
export async function testPageCommand(
  opts: { config: string; device: string; printer?: string },
  io: CliIo,
  registry: DriverRegistry,
): Promise<number> {
  const config = loadConfig(opts.config);
  const say = messageRenderer(localeOf(config, io.env), config.timezone);
  const device = deviceOf(config, opts.device);
  const load = registry.get(device.driver);
  if (!load) throw new AgentError('CONFIG_INVALID', `Unknown driver "${device.driver}"`);
  const factory = await load();
  const parsed = factory.configSchema.safeParse(device.options);
  if (!parsed.success) {
    throw new AgentError(
      'CONFIG_INVALID',
      `Invalid options of device ${device.id}:\n${formatIssues(parsed.error)}`,
    );
  }
  const name = device.name ?? `Printer ${device.id.slice(0, 8)}`;
  const log = createLogger({ level: 'warn', stream: io.stderr });
  const memory = new Map<string, unknown>();
  const driver: Driver = factory.create(parsed.data, {
    deviceId: device.id,
    deviceName: name,
    timezone: config.timezone,
    log,
    clock: systemClock,
    store: {
      get: (key) => memory.get(key),
      set: (key, value) => void memory.set(key, value),
      flush: async () => undefined,
    },
    platform: {
      orderItems: async () => [],
      payments: async () => [],
    },
    io: createTransportFactory({ log }),
    http: createHttpClient,
  });
  const stop = new AbortController();
  void firstSignal(io, () => undefined).then(() =>
    stop.abort(new AgentError('ABORTED', 'Cancelled with Ctrl-C')),
  );
  const at = new Date();
  const commandId = `test-page-${at.getTime().toString(36)}`;
  const printer = opts.printer ?? '';
  const pdf = testPagePdf({ id: device.id, name }, printer, at);
  const data = {
    kind: 'print' as const,
    print: {
      copyCount: 1,
      fileType: 'application/pdf',
      fileData: pdf.toString('base64'),
      printerName: printer,
    },
  };
  const job: Job = {
    commandId,
    deviceId: device.id,
    attempt: 1,
    data,
    command: {
      id: commandId,
      state: 'Received',
      createdUtc: at.toISOString(),
      device: { id: device.id, type: 'Printer', name },
      source: 'commands',
      data,
    },
  };
  let shown = -1;
  const ctx: ExecuteContext = {
    signal: stop.signal,
    progress: (fraction) => {
      const percent = Math.round(fraction * 100);
      if (percent !== shown) line(io.stderr, `${percent}%`);
      shown = percent;
    },
    checkpoint: async () => undefined,
  };
  try {
    await driver.open(stop.signal);
    const result = await driver.execute(job, ctx);
    line(io.stdout, say.render(readMessage(result.notes)));
    return 0;
  } catch (e) {
    if (!isAgentError(e)) throw e;
    line(io.stderr, say.render(e.notes));
    return 1;
  } finally {
    await driver.close();
  }
}
