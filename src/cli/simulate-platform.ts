import { resolve } from 'node:path';
import { createLogger } from '../log.js';
import { loadScenario, startPlatformSimulator } from '../platform-simulator/index.js';
import { type CliIo, firstSignal, line } from './io.js';

/**
 * `simulate-platform`: runs the fake platform until SIGTERM/SIGINT. Prints its address, its
 * WebSocket address and its demo tokens (the simulator's own, not secrets of any real platform),
 * so that an agent or an integrator can point at it.
 */
export async function simulatePlatformCommand(
  opts: { scenario?: string; port: number },
  io: CliIo,
): Promise<number> {
  const scenario = opts.scenario ? loadScenario(resolve(opts.scenario)) : undefined;
  const log = createLogger({ level: 'info' });
  const simulator = await startPlatformSimulator({ port: opts.port, log, ...(scenario ? { scenario } : {}) });
  line(io.stdout, `platform simulator at ${simulator.url}`);
  line(io.stdout, `websocket          ${simulator.wsUrl}`);
  line(io.stdout, `client token       ${simulator.tokens.clientToken}`);
  line(io.stdout, `access token       ${simulator.tokens.accessToken}`);
  line(io.stdout, `admin API          ${simulator.url}/_sim/ (see docs/platform-simulator.md)`);
  line(io.stdout, `devices            ${simulator.world.devices.map((d) => `${d.type} ${d.id}`).join(', ')}`);
  await firstSignal(io, () => undefined);
  await simulator.close();
  return 0;
}
