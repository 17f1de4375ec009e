import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium; CI installs it, tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless Chromium as this machine needs it: no sandbox (root), and none of the background
 * network traffic that a closed network refuses.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
