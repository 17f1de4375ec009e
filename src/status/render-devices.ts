import type { DeviceSnapshot } from '../agent-api.js';
import { formatAgo, formatFact, formatTime, humanizeKey } from './format.js';
import { html, join, type SafeHtml } from './html.js';

/**
 * Facts are driver-specific (`DeviceStatus.facts`); the ones a receptionist asks about first — for
 * a fiscal printer: paper, cover, fiscal day, transmissions pending — are recognised by name and
 * shown first, the rest follow in the driver's order.
 */
const FACT_PRIORITY: RegExp[] = [
  /paper/i,
  /cover/i,
  /daily|fiscal.?day|day.?open/i,
  /send|pending|transmi|reject/i,
];

function factRank(key: string): number {
  const rank = FACT_PRIORITY.findIndex((re) => re.test(key));
  return rank === -1 ? FACT_PRIORITY.length : rank;
}

export function orderedFacts(
  facts: Record<string, string | number | boolean | null>,
): Array<[string, string | number | boolean | null]> {
  // A fact the driver does not know (null) is left out rather than shown as "unknown".
  return Object.entries(facts)
    .filter(([, value]) => value !== null)
    .map((entry, index) => ({ entry, index, rank: factRank(entry[0]) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((x) => x.entry);
}

function renderDevice(device: DeviceSnapshot, now: number, timezone: string): SafeHtml {
  const s = device.status;
  const facts = orderedFacts(s.facts);
  const contact =
    s.lastContact === undefined
      ? 'never'
      : `${formatTime(s.lastContact, now, timezone)} (${formatAgo(s.lastContact, now)})`;
  const running = device.running;
  return html`<article class="device ${s.connected ? '' : 'down'}" data-device-id="${device.id}">
<header><h3>${device.name}</h3><span class="badge ${s.connected ? 'ok' : 'err'}">${s.connected ? 'Connected' : 'Not connected'}</span></header>
<p class="summary">${s.summary}</p>
${s.warnings.length > 0 && html`<ul class="warnings">${s.warnings.map((w) => html`<li>${w}</li>`)}</ul>`}
<dl class="facts">
<dt>Type</dt><dd>${device.type} · ${device.driver}</dd>
<dt>Last contact</dt><dd>${contact}</dd>
<dt>Queue</dt><dd>${
    running
      ? html`working on <code>${running.commandId}</code> <progress max="1" value="${running.progress}"></progress> ${Math.round(
          running.progress * 100,
        )}%, `
      : 'idle, '
  }${device.queued} waiting</dd>
${facts.map(([key, value]) => html`<dt>${humanizeKey(key)}</dt><dd>${formatFact(value)}</dd>`)}
</dl>
</article>`;
}

export function renderDevices(devices: readonly DeviceSnapshot[], now: number, timezone: string): SafeHtml {
  if (devices.length === 0) return html`<p class="muted">No devices are configured.</p>`;
  return join(devices.map((d) => renderDevice(d, now, timezone)));
}
