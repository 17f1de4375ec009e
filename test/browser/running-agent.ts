import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type PlatformSimulator, startPlatformSimulator } from '../../src/simulator/index.js';
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

/**
 * For a `describe` of the browser tests: the real daemon (a child process) against the platform
 * simulator, and Chromium, started before its tests and stopped after them.
 */
export function useRunningAgent(dirName: string, options: { locale?: 'en' | 'it' } = {}): RunningAgent {
  let sim: PlatformSimulator | undefined;
  let daemon: DaemonHandle | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    sim = await startPlatformSimulator({ scenario: e2eScenario() });
    daemon = startAgent(sim, tempDir(dirName), options);
    await daemon.start();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
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
