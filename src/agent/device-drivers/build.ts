import type { Clock } from '../../clock.js';
import type { EngineDevice, Journal } from '../../commands/index.js';
import type { Config, DeviceConfig } from '../../config.js';
import type { DriverRegistry, PlatformReader, SimulatedDevice } from '../../drivers-api/types.js';
import { AgentError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { createHttpClient } from '../../transport/http.js';
import type { TransportFactory } from '../../transport/types.js';
import { formatIssues } from '../../zod-issues.js';

export interface DriverWiring {
  registry: DriverRegistry;
  journal: Journal;
  platform: PlatformReader;
  io: TransportFactory;
  clock: Clock;
  log: Logger;
}

/**
 * Builds one driver per configured device. Rejects with CONFIG_INVALID naming the device's path
 * for an unknown driver, a driver of another device type, or options the driver refuses.
 */
export async function createDevices(config: Config, wiring: DriverWiring): Promise<EngineDevice[]> {
  const devices: EngineDevice[] = [];
  for (const [index, device] of config.devices.entries()) {
    devices.push(await createDevice(config, device, index, wiring));
  }
  return devices;
}

async function createDevice(
  config: Config,
  device: DeviceConfig,
  index: number,
  wiring: DriverWiring,
): Promise<EngineDevice> {
  const load = wiring.registry.get(device.driver);
  if (!load) {
    throw new AgentError(
      'CONFIG_INVALID',
      `devices[${index}].driver: unknown driver "${device.driver}" (known: ${[...wiring.registry.keys()].join(', ')})`,
    );
  }
  const factory = await load();
  if (factory.deviceType !== device.type) {
    throw new AgentError(
      'CONFIG_INVALID',
      `devices[${index}].driver: ${device.driver} drives ${factory.deviceType} devices, not ${device.type}`,
    );
  }
  const parsed = factory.configSchema.safeParse(device.options);
  if (!parsed.success) {
    const issues = formatIssues(parsed.error)
      .split('\n')
      .map((issue) => `devices[${index}].options.${issue}`);
    throw new AgentError('CONFIG_INVALID', `Invalid configuration:\n${issues.join('\n')}`);
  }
  const name = device.name ?? `${device.type} ${device.id.slice(0, 8)}`;
  const driver = factory.create(parsed.data, {
    deviceId: device.id,
    deviceName: name,
    timezone: config.timezone,
    log: wiring.log.child({ device: name, deviceId: device.id }),
    clock: wiring.clock,
    store: wiring.journal.deviceStore(device.id),
    platform: wiring.platform,
    io: wiring.io,
    http: createHttpClient,
  });
  const engineDevice: EngineDevice = {
    id: device.id,
    name,
    type: device.type,
    driverKind: factory.kind,
    driver,
  };
  if (factory.checkpointVersion !== undefined) engineDevice.checkpointVersion = factory.checkpointVersion;
  return engineDevice;
}

/**
 * Demo mode (`simulator.devices: true`, as `npm start` runs): starts the device simulator of every
 * configured device whose driver family has one, where its options point. Devices whose driver
 * has no simulator (the `sim-*` drivers need none) are left alone.
 */
export async function startDeviceSimulators(
  config: Config,
  registry: DriverRegistry,
  log: Logger,
): Promise<SimulatedDevice[]> {
  const started: SimulatedDevice[] = [];
  try {
    for (const device of config.devices) {
      const factory = await registry.get(device.driver)?.();
      if (!factory?.simulate) continue;
      const options = factory.configSchema.parse(device.options);
      const name = device.name ?? device.id;
      const sim = await factory.simulate(options, {
        id: device.id,
        name,
        log: log.child({ simulator: name }),
      });
      log.info('device simulator started', { device: name, at: sim.description });
      started.push(sim);
    }
  } catch (error) {
    await Promise.all(started.map((s) => s.close().catch(() => undefined)));
    throw error;
  }
  return started;
}
