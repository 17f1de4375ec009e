import { describe, expect, it } from 'vitest';
import { factValue, numericFacts } from '../../../src/drivers-api/facts.js';
import { createMetrics } from '../../../src/status/metrics/metrics.js';
import { ENCODER_ID, FISCAL_ID, NOW, PRINTER_ID, sampleSnapshot } from '../helpers/fake-source.js';

/** Every sample line of the exposition as name + labels + value. */
function samples(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  const out = [];
  for (const row of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(row);
    if (!match) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] as string, m[2] as string]),
    );
    out.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return out;
}

describe('metrics for a fleet', () => {
  it('labels every sample with the site, and per-device samples with the device name beside its id', async () => {
    const metrics = createMetrics({
      site: { property: 'hotel-roma', desk: 'reception-1' },
      deviceNames: new Map([[FISCAL_ID, 'Fiscal printer']]),
    });
    // An event before any snapshot already carries the configured name.
    metrics.handle({
      type: 'transition',
      at: NOW,
      commandId: 'x',
      deviceId: FISCAL_ID,
      deviceType: 'FiscalMachine',
      kind: 'fiscal',
      to: 'Error',
      errorCode: 'PAPER_OUT',
    });
    metrics.collect(sampleSnapshot());
    const all = samples(await metrics.text());
    expect(all.length).toBeGreaterThan(50);
    for (const s of all)
      expect(s.labels, s.name).toMatchObject({ property: 'hotel-roma', desk: 'reception-1' });
    const perDevice = all.filter((s) => s.labels.device !== undefined && s.name !== 'frontdesk_device_info');
    expect(perDevice.length).toBeGreaterThan(5);
    for (const s of perDevice) expect(s.labels.device_name, s.name).toBeTruthy();
    expect(all).toContainEqual({
      name: 'frontdesk_command_errors_total',
      labels: {
        property: 'hotel-roma',
        desk: 'reception-1',
        device: FISCAL_ID,
        device_name: 'Fiscal printer',
        code: 'PAPER_OUT',
      },
      value: 1,
    });
    const up = all.filter((s) => s.name === 'frontdesk_device_up');
    expect(up.map((s) => [s.labels.device_name, s.value])).toEqual([
      ['Fiscal printer', 1],
      ['Key encoder', 1],
      [expect.stringContaining('Back office'), 0],
    ]);
  });

  it('exports numeric and boolean status facts, warnings and the last platform success', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const snapshot = sampleSnapshot();
    const fiscal = snapshot.devices[0];
    if (!fiscal) throw new Error('sample snapshot without devices');
    fiscal.status.facts = {
      ...fiscal.status.facts,
      certificateExpiryDevice: '20301231',
      certificateExpiryTaxAgency: '2027-02-28',
      address: 'http://192.168.1.50',
      lastReceipt: '0012-0034',
      filesRejected: null,
    };
    metrics.collect(snapshot);
    const all = samples(await metrics.text());
    const facts = Object.fromEntries(
      all.filter((s) => s.name === 'frontdesk_device_fact').map((s) => [s.labels.fact, s.value]),
    );
    expect(facts).toEqual({
      rtFileToSend: 3,
      rtDailyOpen: 1,
      certificateExpiryDevice: Date.UTC(2030, 11, 31) / 1000,
      certificateExpiryTaxAgency: Date.UTC(2027, 1, 28) / 1000,
    });
    const warnings = all.filter((s) => s.name === 'frontdesk_device_warnings');
    expect(warnings.find((s) => s.labels.device === FISCAL_ID)?.value).toBe(1);
    expect(warnings.find((s) => s.labels.device === ENCODER_ID)?.value).toBe(0);
    expect(warnings.find((s) => s.labels.device === PRINTER_ID)?.value).toBe(0);
    expect(all.find((s) => s.name === 'frontdesk_platform_last_success_timestamp_seconds')?.value).toBe(
      (NOW - 2000) / 1000,
    );

    // A fact that disappears from the status disappears from the metrics at the next scrape.
    fiscal.status.facts = { rtDailyOpen: false };
    metrics.collect(snapshot);
    const again = samples(await metrics.text()).filter((s) => s.name === 'frontdesk_device_fact');
    expect(again.map((s) => [s.labels.fact, s.value])).toEqual([['rtDailyOpen', 0]]);
  });

  it('reads dates only when they are real ISO calendar dates', () => {
    expect(factValue('2030-12-31')).toBe(Date.UTC(2030, 11, 31) / 1000);
    expect(factValue('2030-02-31')).toBeUndefined();
    expect(factValue('20301331')).toBeUndefined();
    // DDMMYYYY as some printers send it is not ISO and is left out rather than misread.
    expect(factValue('31122030')).toBeUndefined();
    expect(factValue('2026-03-03T13:00:00Z')).toBe(NOW / 1000);
    expect(factValue('99MEY123456')).toBeUndefined();
    expect(factValue(Number.NaN)).toBeUndefined();
    expect(numericFacts({ a: 1, b: true, c: 'x', d: null })).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });
});
