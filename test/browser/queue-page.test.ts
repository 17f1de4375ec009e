import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/log.js';
import { textMessage } from '../../src/messages/message.js';
import { type RunningStatusServer, startStatusServer } from '../../src/status/start.js';
import { CHROMIUM, launchChromium } from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import { requireTool } from '../helpers/tools.js';
import { FakeSource, NOW, PRINTER_ID } from '../status/helpers/fake-source.js';
import { THIS_USER } from '../status/helpers/staff-login.js';

/**
 * The page's Waiting section in a real browser: what waits with why, and staff's "Try delivery
 * now" sent by the page's script (with the session's CSRF token) and answered under the button;
 * then the live update that shows the queue emptied.
 */

const available = requireTool(CHROMIUM, 'drives the status page in a real browser');

describe.skipIf(!available)('the queue on the status page, in Chromium', () => {
  const source = new FakeSource();
  const log = createMemoryLogger();
  let server: RunningStatusServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    source.snap.outbox = {
      pending: 3,
      oldestAt: NOW - 18 * 60_000,
      trouble: {
        since: NOW - 18 * 60_000,
        code: 'PLATFORM_UNREACHABLE',
        reason: 'outage',
        until: NOW + 120_000,
      },
    };
    const printer = source.snap.devices.find((d) => d.id === PRINTER_ID);
    if (printer) {
      printer.queued = 4;
      printer.status = {
        connected: true,
        summary: textMessage('stopped'),
        warnings: [textMessage('Reception Laser is out of paper — load paper into the tray')],
        facts: {},
      };
    }
    server = await startStatusServer({ source, log, listen: '127.0.0.1:0', live: { throttleMs: 20 } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(server.loginAddress(THIS_USER));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists what waits with why, and tries delivery when staff click', async () => {
    const outbox = page.locator('#waiting li[data-waiting="outbox"]');
    expect(await outbox.textContent()).toBe(
      '3 results and updates not yet delivered to the platform — platform unreachable since 13:42:00 (PLATFORM_UNREACHABLE); next try at 14:02:00',
    );
    expect(await page.locator(`#waiting li[data-queue-device="${PRINTER_ID}"]`).textContent()).toContain(
      '4 commands queued — Reception Laser is out of paper',
    );
    await eventually('the page to say Live', async () => {
      expect(await page.locator('#live').textContent()).toBe('Live');
      return true;
    });
    await page.click('#deliver-now button[type="submit"]');
    await eventually('the answer under the button', async () => {
      expect(await page.locator('#deliver-now').getAttribute('data-outcome')).toBe('ok');
      return true;
    });
    expect(await page.locator('#deliver-now output').textContent()).toBe('Delivering 3 waiting updates now.');
    expect(source.deliverNowCalls).toBe(1);
    expect(
      log.lines.filter((l) => /audit=deliver-now who=page .*result=done pending=3 lifted=yes/.test(l)),
    ).toHaveLength(1);

    // The agent delivered them: the next live update empties the list.
    source.snap.outbox = { pending: 0 };
    source.transition('cmd-live-1', 'Received');
    await eventually('the outbox line to go', async () => {
      expect(await page.locator('#waiting li[data-waiting="outbox"]').count()).toBe(0);
      return true;
    });
    expect(problems).toEqual([]);
  });
});
