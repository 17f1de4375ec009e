import { cannotSimulate } from '../../src/drivers-api/simulation.js';
import type { DriverFactory } from '../../src/drivers-api/types.js';
import { isLoopback } from '../../src/loopback.js';
import { type IppPrinterOptions, IppPrinterOptionsSchema } from './config.js';
import { IppPrinterDriver } from './driver.js';
import { httpUrlOf } from './ipp-client.js';
import { configuredTargets } from './printers.js';

export type { IppPrinterOptions } from './config.js';
export { IppPrinterOptionsSchema } from './config.js';

/**
 * Office printers (the platform's `Printer` commands) over IPP: local CUPS queues or IPP
 * Everywhere printers. `create` rejects with CONFIG_INVALID when the TLS CA file cannot be read.
 * `simulate` starts the project's IPP printer simulator where the configured printers point
 * (every one must be an ipp:// or http:// address on a loopback host with a port; one simulator
 * per port, each printer at its path).
 */
export const ippPrinterFactory: DriverFactory<IppPrinterOptions> = {
  kind: 'ipp-printer',
  deviceType: 'Printer',
  configSchema: IppPrinterOptionsSchema,
  create: (options, ctx) => new IppPrinterDriver(options, ctx),
  simulate: async (options, device) => {
    const targets = configuredTargets(options);
    const byPort = new Map<string, Array<{ name: string; path: string }>>();
    for (const t of targets) {
      const url = new URL(t.uri);
      const http = httpUrlOf(t.uri);
      if (http.protocol !== 'http:' || !isLoopback(url.hostname) || !url.port) {
        throw cannotSimulate(
          device,
          `a simulated printer needs an ipp:// address on a loopback host with a port, like ipp://127.0.0.1:8631/printers/Reception_Laser (got ${t.uri})`,
        );
      }
      const key = `${url.hostname}:${url.port}`;
      byPort.set(key, [...(byPort.get(key) ?? []), { name: t.label, path: url.pathname }]);
    }
    if (byPort.size === 0) {
      throw cannotSimulate(device, `a simulated printer needs at least one entry under options.printers`);
    }
    const { startIppSimulator } = await import('./simulator/index.js');
    const started: Array<{ close(): Promise<void> }> = [];
    const described: string[] = [];
    try {
      for (const [key, printers] of byPort) {
        const [host, port] = [
          key.slice(0, key.lastIndexOf(':')),
          Number(key.slice(key.lastIndexOf(':') + 1)),
        ];
        const sim = await startIppSimulator({ host, port, printers, log: device.log });
        started.push(sim);
        described.push(...printers.map((p) => `${p.name} at ${sim.printerUri(p.name)}`));
      }
    } catch (e) {
      await Promise.all(started.map((s) => s.close()));
      throw cannotSimulate(device, `the simulated printer could not start (${(e as Error).message})`);
    }
    return {
      description: `simulated IPP printer${described.length > 1 ? 's' : ''} ${described.join(', ')}`,
      close: async () => {
        await Promise.all(started.map((s) => s.close()));
      },
    };
  },
  discover: async (ctx) => {
    const { discoverIppPrinters } = await import('./discovery.js');
    return discoverIppPrinters(ctx);
  },
};
