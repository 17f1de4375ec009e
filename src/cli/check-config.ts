import { type Config, loadConfig, localeOf, resolveSecrets } from '../config.js';
import { listedTypeFits } from '../connector/model.js';
import type { DriverRegistry } from '../drivers-api/types.js';
import { AgentError } from '../errors.js';
import { createLogger } from '../log.js';
import type { Message } from '../messages/message.js';
import { type MessageRenderer, messageRenderer } from '../messages/render.js';
import { formatIssues } from '../zod-issues.js';
import { type CliIo, line } from './io.js';
import { checkConfigMessages as m } from './messages.js';
import { oneShotClient } from './platform.js';

/**
 * `check-config`: validates the file, each device's driver and driver options, and that the
 * tokens can be read; with `--online` also that the platform accepts the tokens and knows every
 * configured device with the configured type. Prints one line per finding; exit 0 only when all
 * is well.
 */
export async function checkConfigCommand(
  opts: { config: string; online: boolean },
  io: CliIo,
  registry: DriverRegistry,
): Promise<number> {
  const config = loadConfig(opts.config);
  const problems: Array<string | Message> = await checkDevices(config, registry);
  const say = messageRenderer(localeOf(config, io.env), config.timezone);
  for (const text of await describeDevices(config, registry, say)) line(io.stdout, text);
  const secretsList: string[] = [];
  let secrets: ReturnType<typeof resolveSecrets> | undefined;
  if (config.simulator?.enabled) {
    line(io.stdout, say.render(m.tokensFromSimulator()));
  } else {
    try {
      secrets = resolveSecrets(config, io.env);
      secretsList.push(secrets.clientToken, secrets.accessToken);
      line(io.stdout, say.render(m.tokensReadable()));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (opts.online && secrets) {
    const log = createLogger({ level: 'warn', secrets: secretsList, stream: io.stderr });
    try {
      const devices = await oneShotClient(config, secrets, log).devices();
      line(io.stdout, say.render(m.tokensAccepted({ count: devices.length })));
      for (const device of config.devices) {
        const found = devices.find((d) => d.Id === device.id);
        const seen = { id: device.id, type: found?.Type ?? '', name: found?.Name ?? '' };
        if (!found) problems.push(m.notOnPlatform({ id: device.id }));
        else if (!listedTypeFits(device.type, found.Type)) {
          problems.push(m.otherType({ ...seen, configured: device.type }));
        } else if (found.Type !== device.type) {
          // A fiscal machine the platform lists as a Printer: its commands come as fiscal ones.
          line(io.stdout, say.render(m.deviceFoundAs({ ...seen, configured: device.type })));
        } else line(io.stdout, say.render(m.deviceFound(seen)));
      }
    } catch (error) {
      problems.push(`platform: ${error instanceof AgentError ? error.message : String(error)}`);
    }
  }
  for (const problem of problems) line(io.stderr, say.render(m.problem({ problem })));
  line(
    io.stdout,
    say.render(
      problems.length === 0
        ? m.ok({ file: opts.config })
        : m.problems({ file: opts.config, count: problems.length }),
    ),
  );
  return problems.length === 0 ? 0 : 1;
}

/**
 * What each device's valid options mean, in the driver's words (`DriverFactory.describe`) and the
 * configured language: for a fiscal printer, every department with its VAT rate or nature, the
 * payment map, the closure. Each line starts with the device's place in the file.
 */
export async function describeDevices(
  config: Config,
  registry: DriverRegistry,
  say: MessageRenderer = messageRenderer('en'),
): Promise<string[]> {
  const out: string[] = [];
  for (const [index, device] of config.devices.entries()) {
    const factory = await registry.get(device.driver)?.();
    const parsed = factory?.configSchema.safeParse(device.options);
    if (!factory?.describe || !parsed?.success) continue;
    for (const text of factory.describe(parsed.data))
      out.push(`devices[${index}] ${device.name ?? device.id}: ${say.render(text)}`);
  }
  return out;
}

/** Each device's driver must exist, fit the device type and accept its options. */
export async function checkDevices(config: Config, registry: DriverRegistry): Promise<string[]> {
  const problems: string[] = [];
  for (const [index, device] of config.devices.entries()) {
    const load = registry.get(device.driver);
    if (!load) {
      problems.push(
        `devices[${index}].driver: unknown driver "${device.driver}" (known: ${[...registry.keys()].join(', ')})`,
      );
      continue;
    }
    const factory = await load();
    if (factory.deviceType !== device.type) {
      problems.push(
        `devices[${index}].driver: ${device.driver} drives ${factory.deviceType} devices, not ${device.type}`,
      );
    }
    const parsed = factory.configSchema.safeParse(device.options);
    if (!parsed.success) {
      for (const issue of formatIssues(parsed.error).split('\n'))
        problems.push(`devices[${index}].options.${issue}`);
    }
  }
  return problems;
}
