import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { driverRegistry } from '../../../drivers/index.js';
import { startDeviceSimulators } from '../../../src/agent/device-drivers/index.js';
import { parseConfig } from '../../../src/config.js';
import { silentLogger } from '../../../src/log.js';

async function freePort(): Promise<number> {
  return await new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function config(devices: unknown[]) {
  return parseConfig({
    version: 1,
    platform: { url: 'http://127.0.0.1:1' },
    journal: { path: ':memory:' },
    simulator: { enabled: true, devices: true },
    devices,
  });
}

describe('device simulators for demonstrations', () => {
  it('starts an RT printer and an encoder where the real drivers will look for them', async () => {
    const [printerPort, encoderPort] = [await freePort(), await freePort()];
    const sims = await startDeviceSimulators(
      config([
        {
          id: 'rt',
          type: 'FiscalMachine',
          driver: 'epson-fpmate',
          options: { url: `http://127.0.0.1:${printerPort}` },
        },
        {
          id: 'enc',
          type: 'KeyCutter',
          driver: 'salto-encoder',
          options: { transport: 'tcp', host: '127.0.0.1', port: encoderPort },
        },
        { id: 'simfiscal', type: 'FiscalMachine', driver: 'sim-fiscal', options: {} },
      ]),
      driverRegistry,
      silentLogger,
    );
    try {
      expect(sims.map((s) => s.description)).toEqual([
        expect.stringContaining(`http://127.0.0.1:${printerPort}`),
        `simulated encoder at tcp://127.0.0.1:${encoderPort}`,
      ]);
      const answer = await fetch(
        `http://127.0.0.1:${printerPort}/cgi-bin/fpmate.cgi?devid=local_printer&timeout=1000`,
        {
          method: 'POST',
          headers: { 'content-type': 'text/xml; charset=utf-8' },
          body: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><printerCommand><queryPrinterStatus operator="1" statusType="1"/></printerCommand></s:Body></s:Envelope>',
        },
      );
      expect(await answer.text()).toContain('success="true"');
    } finally {
      await Promise.all(sims.map((s) => s.close()));
    }
  });

  it('refuses to simulate a printer that is not on a loopback address', async () => {
    await expect(
      startDeviceSimulators(
        config([
          {
            id: 'rt',
            type: 'FiscalMachine',
            driver: 'epson-fpmate',
            options: { url: 'http://192.0.2.10:80' },
          },
        ]),
        driverRegistry,
        silentLogger,
      ),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
