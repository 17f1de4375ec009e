import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type FpmateSimulator, startFpmateSimulator } from '../../drivers/epson-fpmate/simulator/index.js';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/platform-simulator/index.js';
import { e2eScenario, startAgent } from '../e2e/harness.js';
import { launchChromium } from '../helpers/browser.js';
import { type DaemonHandle, tempDir } from '../helpers/daemon.js';

/** Where the browser tests save their screenshots, for people to look at. */
export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-output');

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, name);
}

export interface RunningAgent {
  readonly sim: PlatformSimulator;
  readonly daemon: DaemonHandle;
  readonly browser: Browser;
}

/** The id and name of the Epson RT printer `useRunningAgent(…, {epson: true})` adds. */
export const EPSON_DEVICE = { id: 'e2e00000-0000-4000-8000-0000000000e1', name: 'RT Epson' } as const;

/**
 * For a `describe` of the browser tests: the real daemon (a child process) against the platform
 * simulator, and Chromium, started before its tests and stopped after them. With `epson`, the
 * agent also drives an Epson RT printer (the real epson-fpmate driver against the printer
 * simulator), so the page shows a real driver's facts.
 */
export function useRunningAgent(
  dirName: string,
  options: { locale?: 'en' | 'it'; epson?: boolean } = {},
): RunningAgent {
  let sim: PlatformSimulator | undefined;
  let daemon: DaemonHandle | undefined;
  let browser: Browser | undefined;
  let printer: FpmateSimulator | undefined;
  beforeAll(async () => {
    if (options.epson) printer = await startFpmateSimulator({ serial: '99MEY654321' });
    const scenario = e2eScenario();
    if (printer) {
      scenario.devices = [
        ...(scenario.devices ?? []),
        { ...EPSON_DEVICE, type: 'FiscalMachine', apiUrl: printer.url, serialNumber: '99MEY654321' },
      ];
    }
    sim = await startPlatformSimulator({ scenario });
    const extraDevices = printer
      ? [{ ...EPSON_DEVICE, type: 'FiscalMachine', driver: 'epson-fpmate', options: { url: printer.url } }]
      : [];
    daemon = startAgent(sim, tempDir(dirName), {
      ...(options.locale ? { locale: options.locale } : {}),
      extraDevices,
    });
    await daemon.start();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await printer?.close();
    await sim?.close();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started`);
    return value;
  };
  return {
    get sim() {
      return started(sim, 'the platform simulator');
    },
    get daemon() {
      return started(daemon, 'the agent');
    },
    get browser() {
      return started(browser, 'Chromium');
    },
  };
}
