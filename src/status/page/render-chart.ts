import type { MessageRenderer } from '../../messages/render.js';
import type { AgentSnapshot } from '../../status-model.js';
import { latencyWords, minuteToMs } from './format.js';
import { html, type SafeHtml } from './html.js';
import { pageMessages } from './messages.js';

type Bucket = AgentSnapshot['perMinute'][number];

const W = 640;
const H = 180;
const LEFT = 34;
const RIGHT = 52;
const TOP = 12;
const BOTTOM = 22;

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * Commands per minute (processed and failed, stacked bars, left axis) and the median pickup
 * latency (line, right axis) of the last hour, as inline SVG: no script, no external asset.
 */
export function renderChart(buckets: readonly Bucket[], say: MessageRenderer): SafeHtml {
  if (buckets.length === 0) return html`<p class="muted">${say.render(pageMessages.noData())}</p>`;
  const clock = (minute: number) => say.value({ at: minuteToMs(minute), show: 'time' });
  const plotW = W - LEFT - RIGHT;
  const plotH = H - TOP - BOTTOM;
  const slot = plotW / buckets.length;
  const busiest = Math.max(0, ...buckets.map((b) => b.processed + b.failed));
  const maxCount = Math.max(1, busiest);
  const latencies = buckets.map((b) => b.pickupP50Ms).filter((v): v is number => v !== undefined);
  const maxLatency = Math.max(1, ...latencies);
  const y = (count: number) => TOP + plotH - (count / maxCount) * plotH;
  const yLatency = (ms: number) => TOP + plotH - (ms / maxLatency) * plotH;

  const bars = buckets.map((b, i) => {
    const x = round(LEFT + i * slot + slot * 0.1);
    const w = round(Math.max(1, slot * 0.8));
    const okTop = y(b.processed);
    const failTop = y(b.processed + b.failed);
    const bar = { time: clock(b.minute), done: b.processed, failed: b.failed };
    const label = say.render(
      b.pickupP50Ms !== undefined
        ? pageMessages.chartBarPickup({ ...bar, latency: latencyWords(b.pickupP50Ms) })
        : pageMessages.chartBar(bar),
    );
    return html`<g><title>${label}</title><rect class="bar-ok" x="${x}" y="${round(okTop)}" width="${w}" height="${round(
      TOP + plotH - okTop,
    )}"></rect><rect class="bar-fail" x="${x}" y="${round(failTop)}" width="${w}" height="${round(okTop - failTop)}"></rect></g>`;
  });

  const points = buckets
    .map((b, i) =>
      b.pickupP50Ms === undefined
        ? undefined
        : `${round(LEFT + (i + 0.5) * slot)},${round(yLatency(b.pickupP50Ms))}`,
    )
    .filter((p): p is string => p !== undefined);
  const first = buckets[0] as Bucket;
  const last = buckets[buckets.length - 1] as Bucket;
  const total = buckets.reduce((acc, b) => acc + b.processed + b.failed, 0);
  const counts = { total, minutes: buckets.length, busiest };
  const summary = say.render(
    latencies.length > 0
      ? pageMessages.chartSummaryPickup({ ...counts, latency: latencyWords(Math.max(...latencies)) })
      : pageMessages.chartSummary(counts),
  );

  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${summary}" xmlns="http://www.w3.org/2000/svg">
<line class="axis" x1="${LEFT}" y1="${TOP + plotH}" x2="${W - RIGHT}" y2="${TOP + plotH}"></line>
<text class="label" x="${LEFT - 4}" y="${TOP + 8}" text-anchor="end">${maxCount}</text>
<text class="label" x="${LEFT - 4}" y="${TOP + plotH}" text-anchor="end">0</text>
${bars}
${points.length > 1 && html`<polyline class="latency" points="${points.join(' ')}"></polyline>`}
${points.length === 1 && html`<circle class="latency-dot" cx="${points[0]?.split(',')[0]}" cy="${points[0]?.split(',')[1]}" r="3"></circle>`}
${latencies.length > 0 && html`<text class="label latency-label" x="${W - RIGHT + 4}" y="${TOP + 8}">${say.render(latencyWords(maxLatency))}</text>`}
<text class="label" x="${LEFT}" y="${H - 6}">${clock(first.minute)}</text>
<text class="label" x="${W - RIGHT}" y="${H - 6}" text-anchor="end">${clock(last.minute)}</text>
</svg>
<p class="legend"><span class="key key-ok"></span> ${say.render(pageMessages.legendDone())} <span class="key key-fail"></span> ${say.render(
    pageMessages.legendFailed(),
  )} <span class="key key-latency"></span> ${say.render(pageMessages.legendLatency())} — ${summary}</p>`;
}
