import { describe, expect, it } from 'vitest';
import { humanizeKey } from '../../src/status/page/format.js';
import { DEVICES } from '../e2e/harness.js';
import { CHROMIUM } from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import { requireTool } from '../helpers/tools.js';
import { EPSON_DEVICE, screenshotPath, useRunningAgent } from './running-agent.js';

const available = requireTool(
  CHROMIUM,
  'drives the Italian status page of the running agent in a real browser',
);

/**
 * The real daemon with `locale: it`, against the platform simulator: the Notes the platform
 * receives are Italian, and so is the page, with its Cut keys form and live updates, and the
 * real Epson driver's facts (against the printer simulator). The screenshots
 * (test-output/agent-status-page-it*.png) are for people to look at.
 */
describe.skipIf(!available)('status page of the running agent in Italian, in Chromium', () => {
  const running = useRunningAgent('browser-agent-it', { locale: 'it', epson: true });

  const notesOf = (id: string) => running.sim.history(id).at(-1)?.notes ?? '';

  it('sends Italian Notes to the platform and shows the page in Italian, live, with the Cut keys form', async () => {
    const { sim, daemon, browser } = running;
    const receipt = sim.createFiscalData({ deviceId: DEVICES.fiscalOk });
    const paperOut = sim.createFiscalPayload({ deviceId: DEVICES.fiscalPaperOut });
    const keys = sim.createKeys({ deviceId: DEVICES.keysOk, keyCount: 2 });
    for (const c of [receipt, paperOut, keys]) {
      await eventually(`command ${c.id} finished`, () =>
        ['Processed', 'Error'].includes(sim.command(c.id)?.state ?? ''),
      );
    }
    // What the platform received, in Italian: the receipt's numbers and total in the Italian form.
    expect(notesOf(receipt.id)).toMatch(/^Scontrino \d{4}-\d{4} su RT \w+, totale \d+,\d\d\u00a0€$/);
    expect(notesOf(keys.id)).toMatch(/^2 chiavi per (la camera|le camere) /);
    expect(sim.command(paperOut.id)?.state).toBe('Error');
    expect(notesOf(paperOut.id)).toMatch(/\(PAPER_OUT/);
    expect(notesOf(paperOut.id)).toMatch(/^La stampante è senza carta: sostituire il rotolo e riprovare\./);

    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: 'it-IT' });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(daemon.statusUrl());
    expect(await page.locator('h2').textContent()).toBe('Accesso all’agente della reception');
    await page.goto(await daemon.loginUrl());
    expect(await page.locator('html').getAttribute('lang')).toBe('it');
    expect(await page.locator('h1').textContent()).toBe('Agente della reception');
    for (const heading of [
      'Da controllare',
      'Collegamento con la piattaforma',
      'Codifica chiavi',
      'Dispositivi',
    ]) {
      await eventually(
        `the heading ${heading}`,
        async () => (await page.getByRole('heading', { name: heading, exact: true }).count()) === 1,
      );
    }
    await eventually(
      'the page to say it is live',
      async () => (await page.locator('#live').textContent()) === 'In diretta',
    );
    const row = page.locator(`tr[data-command-id="${receipt.id}"]`);
    expect(await row.textContent()).toMatch(/Scontrino \d{4}-\d{4} su RT/);
    expect(await row.textContent()).toMatch(/Totale: \d+,\d\d\u00a0€/);
    expect(await row.locator('.badge').first().textContent()).toBe('Eseguito');
    expect(await page.locator(`tr[data-command-id="${keys.id}"]`).textContent()).toMatch(
      /Camere: \S+|Camera: \S+|Camere: .+ e .+/,
    );

    // A live update: a command created now appears without a reload, its state in Italian.
    const live = sim.createKeys({ deviceId: DEVICES.keysOk, keyCount: 1 });
    await eventually(
      `the live command ${live.id} shown Processed`,
      async () =>
        (await page.locator(`tr[data-command-id="${live.id}"]`).getAttribute('data-state')) === 'Processed',
    );
    expect(await page.locator(`tr[data-command-id="${live.id}"] .badge`).first().textContent()).toBe(
      'Eseguito',
    );

    // The Cut keys form, in Italian, creating a real command the agent runs.
    const form = page.locator('#cut-form');
    expect(await form.locator('button[type="submit"]').textContent()).toBe('Codifica chiavi');
    expect(await form.textContent()).toContain('ID prenotazione');
    const reservation = sim.world.reservations[0];
    if (!reservation) throw new Error('the scenario has no reservation');
    await form.locator('select[name="deviceId"]').selectOption(DEVICES.keysOk);
    await form.locator('input[name="reservationId"]').fill(reservation.id);
    await form.locator('input[name="keyCount"]').fill('2');
    await form.locator('button[type="submit"]').click();
    const created = await eventually('the cut-keys form to name its command', () =>
      page.locator('#cut-result').getAttribute('data-command-id'),
    );
    await eventually('the cut-keys command', () => sim.command(created)?.state === 'Processed');
    await eventually(
      'the cut-keys result in Italian',
      async () => (await page.locator('#cut-result').textContent()) === `Comando ${created}: Eseguito`,
    );
    expect(notesOf(created)).toMatch(/^2 chiavi per /);

    await page.screenshot({ path: screenshotPath('agent-status-page-it.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('shows the Epson printer’s facts in Italian: what staff act on first, the technical ones folded', async () => {
    const { sim, daemon, browser } = running;
    const receipt = sim.createFiscalData({ deviceId: EPSON_DEVICE.id });
    await eventually(`receipt ${receipt.id} printed`, () => sim.command(receipt.id)?.state === 'Processed');
    expect(notesOf(receipt.id)).toMatch(/^Scontrino \d{4}-\d{4} su RT 99MEY654321, .*totale \d+,\d\d EUR$/);

    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: 'it-IT' });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(await daemon.loginUrl());
    const card = page.locator(`article.device[data-device-id="${EPSON_DEVICE.id}"]`);
    const fact = (key: string) => card.locator(`dd[data-fact="${key}"]`);
    await eventually('the printer’s paper on its card', async () => (await fact('paper').count()) === 1);

    // What staff act on leads the card, in Italian, visible without opening anything.
    const lead = card.locator(':scope > dl.facts');
    expect(await lead.locator('dt').allTextContents()).toEqual(
      expect.arrayContaining(['Carta', 'Coperchio', 'Giornata fiscale aperta', 'Prossima chiusura']),
    );
    expect(await fact('paper').textContent()).toBe('presente');
    expect(await fact('fiscalDayOpen').textContent()).toBe('sì');
    expect(await fact('nextClosure').textContent()).toMatch(/^(\d{1,2} \w{3}, )?03:30:00$/);
    expect(await fact('fiscalDayOpenSince').isVisible()).toBe(true);

    // The technical facts are folded: there, but hidden until "Dettagli tecnici" is opened.
    const technical = card.locator('details.technical');
    expect(await technical.getAttribute('open')).toBeNull();
    expect(await fact('printerStatus').isVisible()).toBe(false);
    expect(await fact('rtMainStatus').count()).toBe(1);
    await technical.locator('summary').click();
    expect(await technical.locator('summary').textContent()).toBe('Dettagli tecnici');
    expect(await fact('printerStatus').isVisible()).toBe(true);
    expect(await fact('rtState').textContent()).toBe('in servizio');
    expect(await fact('fiscalMemory').textContent()).toBe('in servizio');
    expect(await fact('certificateExpiryDevice').textContent()).toBe('31 dic 2030');

    // No fact of the card is in English: each label is the catalogue's, not the key made readable,
    // and no value is an English word or an ISO time.
    const keys = await card
      .locator('dd[data-fact]')
      .evaluateAll((dds) =>
        dds.map((dd) => [
          dd.getAttribute('data-fact') ?? '',
          dd.previousElementSibling?.textContent ?? '',
          dd.textContent ?? '',
        ]),
      );
    expect(keys.length).toBeGreaterThan(25);
    for (const [key, label, value] of keys) {
      expect(label, key).not.toBe(humanizeKey(key as string));
      expect(value, `${label}: ${value}`).not.toMatch(
        /\b(in service|not in service|ok|closed|open|yes|low|full|unknown|done|failed|off)\b|\d{4}-\d\d-\d\dT/,
      );
    }

    // The receipt's row: its Notes and details in Italian.
    const row = page.locator(`tr[data-command-id="${receipt.id}"]`);
    const rowText = (await row.textContent()) ?? '';
    expect(rowText).toMatch(/Scontrino \d{4}-\d{4} su RT 99MEY654321/);
    expect(rowText).toContain('Numero di chiusura (Z): ');
    expect(rowText).toContain('Tipo di documento: scontrino di vendita');
    expect(rowText).toContain('Recuperato dalla memoria della stampante: no');
    expect(rowText).toMatch(/Totale: \d+,\d\d\u00a0€/);
    expect(rowText).not.toMatch(/Z number|Document type|Recovered|sale\b/);

    // Opened, the details stay open while the page updates live.
    const renders = Number((await page.locator('body').getAttribute('data-renders')) ?? '0');
    const more = sim.createKeys({ deviceId: DEVICES.keysOk, keyCount: 1 });
    await eventually('a live update after the fold was opened', async () => {
      const now = Number((await page.locator('body').getAttribute('data-renders')) ?? '0');
      return now > renders && sim.command(more.id)?.state === 'Processed';
    });
    expect(await technical.getAttribute('open')).not.toBeNull();
    // The page re-renders the card on every live update; a render in the middle of the screenshot
    // detaches the element, so the picture is taken again between two renders.
    await eventually('a screenshot of the card between two renders', async () => {
      try {
        await card.screenshot({ path: screenshotPath('agent-status-page-it-epson.png') });
        return true;
      } catch (error) {
        if (/not attached to the DOM/.test(String(error))) return false;
        throw error;
      }
    });
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
