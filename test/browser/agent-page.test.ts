import { describe, expect, it } from 'vitest';
import { DEVICES } from '../e2e/harness.js';
import { CHROMIUM } from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import { requireTool } from '../helpers/tools.js';
import { screenshotPath, useRunningAgent } from './running-agent.js';

const available = requireTool(CHROMIUM, 'drives the status page of the running agent in a real browser');

/** The status page of the real daemon (a child process) against the platform simulator. */
describe.skipIf(!available)('status page of the running agent, in Chromium', () => {
  const running = useRunningAgent('browser-agent');

  it('shows devices and processed commands, updates live, and cuts keys from the form', async () => {
    const { sim, daemon, browser } = running;
    const done = sim.createFiscalPayload({ deviceId: DEVICES.fiscalOk });
    await eventually('the first receipt', () => sim.command(done.id)?.state === 'Processed');
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Without a login the agent shows how staff log in, and nothing of the desk.
    await page.goto(daemon.statusUrl());
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.locator('h2').textContent()).toBe('Log in to the front desk agent');
    expect(await page.locator('[data-device-id]').count()).toBe(0);
    // As staff do: `frontdesk-agent login` prints a one-time address, the browser opens it.
    await page.goto(await daemon.loginUrl());
    expect(new URL(page.url()).pathname).toBe('/');

    for (const id of [DEVICES.fiscalOk, DEVICES.fiscalPaperOut, DEVICES.keysOk, DEVICES.keysNoCard]) {
      await eventually(`device ${id} on the page`, () =>
        page.locator(`[data-device-id="${id}"]`).isVisible(),
      );
    }
    expect(await page.locator(`tr[data-command-id="${done.id}"]`).getAttribute('data-state')).toBe(
      'Processed',
    );
    expect(await page.locator(`tr[data-command-id="${done.id}"]`).textContent()).toMatch(
      /Receipt \d{4}-\d{4}/,
    );
    await eventually(
      'the page to say Live',
      async () => (await page.locator('#live').textContent()) === 'Live',
    );

    // A live update: a command created now appears without a reload.
    const live = sim.createKeys({ deviceId: DEVICES.keysOk, keyCount: 1 });
    await eventually(
      `the live command ${live.id} shown Processed`,
      async () =>
        (await page.locator(`tr[data-command-id="${live.id}"]`).getAttribute('data-state')) === 'Processed',
    );

    // The Cut keys form: a real addKeyCutter on the platform, run by the agent to Processed.
    const reservation = sim.world.reservations[0];
    if (!reservation) throw new Error('the scenario has no reservation');
    await page.locator('#cut-form select[name="deviceId"]').selectOption(DEVICES.keysOk);
    await page.locator('#cut-form input[name="reservationId"]').fill(reservation.id);
    await page.locator('#cut-form input[name="keyCount"]').fill('2');
    await page.locator('#cut-form button[type="submit"]').click();
    const created = await eventually('the cut-keys form to name its command', () =>
      page.locator('#cut-result').getAttribute('data-command-id'),
    );
    await eventually('the cut-keys command', () => sim.command(created)?.state === 'Processed');
    await eventually(
      `the cut-keys command ${created} shown Processed`,
      async () =>
        (await page.locator(`tr[data-command-id="${created}"]`).getAttribute('data-state')) === 'Processed',
    );
    expect(sim.command(created)?.reservationId).toBe(reservation.id);

    await page.screenshot({ path: screenshotPath('agent-status-page.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('turns /healthz to 503 while the platform is unreachable and back to 200 when it returns', async () => {
    const { sim, daemon } = running;
    const health = async () => (await fetch(`${daemon.statusUrl()}/healthz`)).status;
    expect(await health()).toBe(200);
    sim.setFaults({ serverErrors: { rate: 1, next: 0, status: 503 } });
    await eventually('/healthz to turn 503', async () => (await health()) === 503, {
      intervalMs: 100,
    });
    const body = (await (await fetch(`${daemon.statusUrl()}/healthz`)).json()) as { reasons: string[] };
    expect(body.reasons.join(' ')).toMatch(/platform has not answered/);
    sim.clearFaults();
    await eventually('/healthz to return to 200', async () => (await health()) === 200, { intervalMs: 100 });
  }, 90_000);
});
