import type { FactValue } from '../drivers-api/types.js';
import { readMessage } from '../messages/message.js';
import type { MessageRenderer } from '../messages/render.js';
import type { DeviceSnapshot } from '../status-model.js';
import { agoWords, formatFact, labelFor, when } from './format.js';
import { html, join, type SafeHtml } from './html.js';
import { pageMessages } from './messages.js';

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

export function orderedFacts(facts: Record<string, FactValue>): Array<[string, FactValue]> {
  // A fact the driver does not know (null) is left out rather than shown as "unknown".
  return Object.entries(facts)
    .filter(([, value]) => value !== null)
    .map((entry, index) => ({ entry, index, rank: factRank(entry[0]) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((x) => x.entry);
}

const TYPE_WORDS = {
  FiscalMachine: pageMessages.typeFiscalMachine,
  KeyCutter: pageMessages.typeKeyCutter,
  Printer: pageMessages.typePrinter,
} as const;

function renderDevice(device: DeviceSnapshot, now: number, say: MessageRenderer): SafeHtml {
  const s = device.status;
  const facts = orderedFacts(s.facts);
  const contact =
    s.lastContact === undefined
      ? pageMessages.never()
      : pageMessages.timeAndAgo({ time: when(s.lastContact, now), ago: agoWords(s.lastContact, now) });
  const running = device.running;
  return html`<article class="device ${s.connected ? '' : 'down'}" data-device-id="${device.id}">
<header><h3>${device.name}</h3><span class="badge ${s.connected ? 'ok' : 'err'}">${say.render(
    s.connected ? pageMessages.connected() : pageMessages.notConnected(),
  )}</span></header>
<p class="summary">${say.render(readMessage(s.summary))}</p>
${s.warnings.length > 0 && html`<ul class="warnings">${s.warnings.map((w) => html`<li>${say.render(readMessage(w))}</li>`)}</ul>`}
<dl class="facts">
<dt>${say.render(pageMessages.labelType())}</dt><dd>${say.render(TYPE_WORDS[device.type]())} · ${device.driver}</dd>
<dt>${say.render(pageMessages.labelLastContact())}</dt><dd>${say.render(contact)}</dd>
<dt>${say.render(pageMessages.labelQueue())}</dt><dd>${
    running
      ? html`${say.render(pageMessages.queueWorkingOn())} <code>${running.commandId}</code> <progress max="1" value="${running.progress}"></progress> ${Math.round(
          running.progress * 100,
        )}%, `
      : `${say.render(pageMessages.queueIdle())}, `
  }${say.render(pageMessages.queueWaiting({ count: device.queued }))}</dd>
${facts.map(
  ([key, value]) => html`<dt>${labelFor(device.driver, key, say)}</dt><dd>${formatFact(value, say)}</dd>`,
)}
</dl>
</article>`;
}

export function renderDevices(
  devices: readonly DeviceSnapshot[],
  now: number,
  say: MessageRenderer,
): SafeHtml {
  if (devices.length === 0) return html`<p class="muted">${say.render(pageMessages.noDevices())}</p>`;
  return join(devices.map((d) => renderDevice(d, now, say)));
}
