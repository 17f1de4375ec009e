import { describe, expect, it } from 'vitest';
import { textMessage } from '../../../src/messages/message.js';
import '../../../drivers/index.js';
import { english, messageRenderer } from '../../../src/messages/render.js';
import {
  formatAgo,
  formatDuration,
  formatTime,
  humanizeKey,
  minuteToMs,
} from '../../../src/status/page/format.js';
import { escapeHtml, html, join } from '../../../src/status/page/html.js';
import { renderChart } from '../../../src/status/page/render-chart.js';
import { resultLines } from '../../../src/status/page/render-commands.js';
import { orderedFacts } from '../../../src/status/page/render-devices.js';
import { attentionItems } from '../../../src/status/page/render-overview.js';
import { NOW, sampleSnapshot } from '../helpers/fake-source.js';

const rome = messageRenderer('en', 'Europe/Rome');
const utc = messageRenderer('en', 'UTC');
const italian = messageRenderer('it', 'Europe/Rome');

describe('html', () => {
  it('escapes interpolations, keeps nested fragments, drops false/null/undefined', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\``)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;',
    );
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p title="${'"x"'}">${inner}${false}${null}${undefined}${[1, '<', inner]}</p>`.value).toBe(
      '<p title="&quot;x&quot;"><b>&lt;i&gt;</b>1&lt;<b>&lt;i&gt;</b></p>',
    );
    expect(join(['<a>', html`<b></b>`], ', ').value).toBe('&lt;a&gt;, <b></b>');
  });
});

describe('format', () => {
  it('shows times in the property time zone and durations in words', () => {
    expect(formatTime(Date.UTC(2026, 6, 1, 10, 5, 9), Date.UTC(2026, 6, 1, 11), rome)).toBe('12:05:09');
    expect(formatTime(Date.UTC(2026, 6, 1, 10), Date.UTC(2026, 6, 3, 10), rome)).toMatch(/^1 Jul, 12:00:00$/);
    expect(formatTime(Date.UTC(2026, 6, 1, 10), Date.UTC(2026, 6, 3, 10), italian)).toMatch(
      /^1 lug, 12:00:00$/,
    );
    expect(formatDuration(59_400, rome)).toBe('59 s');
    expect(formatDuration(125 * 60_000, rome)).toBe('2 h 5 min');
    expect(formatDuration(72 * 3600_000, rome)).toBe('3 days');
    expect(formatDuration(72 * 3600_000, italian)).toBe('3 giorni');
    expect(formatAgo(undefined, NOW, rome)).toBe('never');
    expect(formatAgo(NOW - 12_000, NOW, rome)).toBe('12 s ago');
    expect(formatAgo(NOW - 12_000, NOW, italian)).toBe('12 s fa');
    expect(humanizeKey('rtFileToSend')).toBe('Rt file to send');
    expect(humanizeKey('paper_near_end')).toBe('Paper near end');
    expect(minuteToMs(29_000_000)).toBe(29_000_000 * 60_000);
    expect(minuteToMs(NOW)).toBe(NOW);
  });
});

describe('sections', () => {
  it('orders device facts: paper, cover, fiscal day, transmissions, then the rest', () => {
    const keys = orderedFacts({
      serial: 'x',
      rtFileToSend: 1,
      paper: 'ok',
      rtDailyOpen: true,
      cover: 'closed',
      model: 'FP-81',
    }).map(([k]) => k);
    expect(keys).toEqual(['paper', 'cover', 'rtDailyOpen', 'rtFileToSend', 'serial', 'model']);
  });

  it('lists result fields briefly', () => {
    expect(
      resultLines(
        { receiptNumber: '0012-0034', empty: '', nested: { a: 1 }, long: 'x'.repeat(500) },
        undefined,
        rome,
      ),
    ).toEqual(['Receipt number: 0012-0034', 'Nested: {"a":1}', `Long: ${'x'.repeat(119)}…`]);
  });

  it('says lists, money and flags as words, with the driver family’s labels', () => {
    const details = {
      rooms: ['202', 'SPA'],
      total: { money: 14.1, currency: 'EUR' },
      cardsCut: 2,
      recovered: false,
    };
    expect(resultLines(details, 'sim-encoder', rome)).toEqual([
      'Rooms: 202 and SPA',
      'Total: €14.10',
      'Cards cut: 2',
      'Recovered: no',
    ]);
    expect(resultLines(details, 'sim-encoder', italian)).toEqual([
      'Camere: 202 e SPA',
      'Totale: 14,10\u00a0€',
      'Tessere codificate: 2',
      'Recovered: no',
    ]);
  });

  it('collects what needs attention, errors first, with what to do', () => {
    const snapshot = sampleSnapshot();
    snapshot.platform.authRejected = true;
    snapshot.outbox = { pending: 4, oldestAt: NOW - 5 * 60_000 };
    const items = attentionItems(snapshot, { ok: false, reasons: [textMessage('journal not writable')] }).map(
      (i) => ({ level: i.level, what: english(i.what), todo: i.todo && english(i.todo) }),
    );
    expect(items.map((i) => i.level)).toEqual(['error', 'error', 'error', 'warn', 'warn', 'warn']);
    expect(items[0]?.todo).toContain('ask IT to check the integration');
    expect(items.some((i) => i.what.includes('4 results not yet delivered') && i.level === 'warn')).toBe(
      true,
    );
    expect(items.some((i) => i.what.includes('cmd-failed') && i.todo?.includes('insert a blank card'))).toBe(
      true,
    );
  });

  it('draws the chart from perMinute with escaped labels and a latency line', () => {
    const svg = renderChart(sampleSnapshot().perMinute, rome).value;
    expect(svg.match(/<g><title>/g)).toHaveLength(60);
    expect(svg).toContain('<polyline class="latency"');
    expect(svg).toMatch(
      /aria-label="\d+ commands in the last 60 minutes; busiest minute 7; pickup p50 up to 990 ms"/,
    );
    expect(renderChart([], utc).value).toContain('No data yet');
    expect(renderChart([], italian).value).toContain('Ancora nessun dato');
    expect(renderChart([{ minute: NOW, processed: 1, failed: 0 }], utc).value).toContain('<rect');
  });
});

describe('chart summary', () => {
  it('reports an empty hour as such', () => {
    const empty = Array.from({ length: 60 }, (_, i) => ({
      minute: NOW - (60 - i) * 60_000,
      processed: 0,
      failed: 0,
    }));
    expect(renderChart(empty, utc).value).toContain(
      'aria-label="0 commands in the last 60 minutes; busiest minute 0"',
    );
  });
});
