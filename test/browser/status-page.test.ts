import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { type RunningStatusServer, startStatusServer } from '../../src/status/start.js';
import { CHROMIUM, launchChromium } from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import { requireTool } from '../helpers/tools.js';
import { ENCODER_ID, FakeSource, FISCAL_ID, PRINTER_ID } from '../status/helpers/fake-source.js';
import { THIS_USER } from '../status/helpers/staff-login.js';

const available = requireTool(CHROMIUM, 'drives the status page in a real browser');
const outputDir = join(import.meta.dirname, '..', '..', 'test-output');

describe.skipIf(!available)('status page in Chromium (fake source)', () => {
  const source = new FakeSource();
  let server: RunningStatusServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startStatusServer({
      source,
      log: silentLogger,
      listen: '127.0.0.1:0',
      live: { throttleMs: 20 },
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) problems.push(`request outside the agent: ${request.url()}`);
    });
    // Logged in as staff are: the one-time address `frontdesk-agent login` prints.
    await page.goto(server.loginAddress(THIS_USER));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows devices, queue and recent commands, and connects for live updates', async () => {
    for (const id of [FISCAL_ID, ENCODER_ID, PRINTER_ID]) {
      await eventually(`device ${id} on the page`, async () => {
        expect(await page.locator(`[data-device-id="${id}"]`).isVisible()).toBe(true);
        return true;
      });
    }
    const fiscal = page.locator(`[data-device-id="${FISCAL_ID}"]`);
    expect(await fiscal.textContent()).toContain('2 waiting');
    expect(await fiscal.textContent()).toContain('Paper low: replace the roll soon');
    expect(await page.locator('tr[data-command-id="cmd-receipt"]').textContent()).toContain(
      'Receipt number: 0012-0034',
    );
    expect(await page.locator('tr[data-command-id="cmd-failed"]').textContent()).toContain(
      'insert a blank card',
    );
    await eventually('the page to say Live', async () => {
      expect(await page.locator('#live').textContent()).toBe('Live');
      return true;
    });
    // Escaped text stays text: the payloads in device names and notes never ran.
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator(`[data-device-id="${PRINTER_ID}"] h3`).textContent()).toContain('<img src=x');
    expect(problems).toEqual([]);
  });

  it('applies a live update from the agent without reloading', async () => {
    await page.evaluate('window.__sameDocument = true');
    source.snap.devices[1] = {
      ...(source.snap.devices[1] as (typeof source.snap.devices)[number]),
      queued: 4,
    };
    source.transition('cmd-live-7', 'Received');
    await eventually('cmd-live-7 to appear', async () => {
      expect(await page.locator('tr[data-command-id="cmd-live-7"]').count()).toBe(1);
      return true;
    });
    expect(await page.locator(`[data-device-id="${ENCODER_ID}"]`).textContent()).toContain('4 waiting');
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
  });

  it('submits the Cut keys form, calls cutKeys and follows the new command live', async () => {
    await page.selectOption('select[name="deviceId"]', ENCODER_ID);
    await page.fill('input[name="reservationId"]', 'res-4711');
    await page.fill('input[name="keyCount"]', '3');
    await page.click('#cut-form button[type="submit"]');
    await eventually('the form to follow cmd-new-1', async () => {
      expect(await page.locator('#cut-result').getAttribute('data-command-id')).toBe('cmd-new-1');
      return true;
    });
    expect(source.cutCalls).toEqual([{ deviceId: ENCODER_ID, reservationId: 'res-4711', keyCount: 3 }]);

    source.transition('cmd-new-1', 'Processing');
    source.emit({
      type: 'progress',
      at: source.snap.now,
      commandId: 'cmd-new-1',
      deviceId: ENCODER_ID,
      fraction: 1 / 3,
    });
    await eventually('the form to show the progress', async () => {
      expect(await page.locator('#cut-result').textContent()).toContain('cutting, 33%');
      return true;
    });
    source.transition('cmd-new-1', 'Processed');
    await eventually('the form to show Processed', async () => {
      expect(await page.locator('#cut-result').getAttribute('data-state')).toBe('Processed');
      return true;
    });
    await eventually('the table to show cmd-new-1 Processed', async () => {
      expect(await page.locator('tr[data-command-id="cmd-new-1"]').getAttribute('data-state')).toBe(
        'Processed',
      );
      return true;
    });

    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: join(outputDir, 'status-page.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('fits a phone-sized screen without sideways scrolling', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      const overflow = () => phone.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      await phone.goto(server.url);
      expect(await phone.locator('input[name="token"]').isVisible()).toBe(true);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await phone.goto(server.loginAddress(THIS_USER));
      expect(await phone.locator('[data-device-id]').count()).toBeGreaterThan(0);
      expect(await overflow()).toBeLessThanOrEqual(0);
    } finally {
      await phone.close();
    }
  });
});
