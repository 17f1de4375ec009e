import type { FactValue } from '../../drivers-api/types.js';
import type { MessageRenderer } from '../../messages/render.js';
import type { DeviceSnapshot } from '../../status-model.js';
import { agoWords, formatFact, labelFor, when } from './format.js';
import { html, join, type SafeHtml } from './html.js';
import { pageMessages } from './messages.js';

/**
 * A device's card: the device's state (connected or not, its summary, its warnings) and the
 * facts staff act on first — for a fiscal printer: paper, the fiscal day, the next closure
 * (`DeviceStatus.staffFacts`, in the driver's order) — then its queue and last contact. The
 * other facts (status codes, certificates, counters, the driver) are folded under "Technical
 * details", a `<details>` the live updates keep open once opened (`data-key`, see the page's
 * script).
 *
 * A device that does not say which facts are for staff (an older agent's `/status.json`) shows
 * every fact, those a receptionist asks about first — paper, cover, fiscal day, transmissions —
 * recognised by name and shown first, the rest in the driver's order.
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

/** The facts the card leads with, and the technical ones it folds (both without unknowns). */
export function splitFacts(
  facts: Record<string, FactValue>,
  staffFacts: readonly string[] | undefined,
): { staff: Array<[string, FactValue]>; technical: Array<[string, FactValue]> } {
  if (!staffFacts) return { staff: orderedFacts(facts), technical: [] };
  const known = (key: string) => facts[key] !== undefined && facts[key] !== null;
  const staff = staffFacts.filter(known).map((key): [string, FactValue] => [key, facts[key] ?? null]);
  const technical = Object.entries(facts).filter(
    ([key, value]) => value !== null && !staffFacts.includes(key),
  );
  return { staff, technical };
}

const TYPE_WORDS = {
  FiscalMachine: pageMessages.typeFiscalMachine,
  KeyCutter: pageMessages.typeKeyCutter,
  Printer: pageMessages.typePrinter,
} as const;

function factRows(
  facts: Array<[string, FactValue]>,
  driver: string,
  now: number,
  say: MessageRenderer,
): SafeHtml[] {
  return facts.map(
    ([key, value]) =>
      html`<dt>${labelFor(driver, key, say)}</dt><dd data-fact="${key}">${formatFact(value, say, now)}</dd>`,
  );
}

function renderDevice(device: DeviceSnapshot, now: number, say: MessageRenderer): SafeHtml {
  const s = device.status;
  const { staff, technical } = splitFacts(s.facts, s.staffFacts);
  const contact =
    s.lastContact === undefined
      ? pageMessages.never()
      : pageMessages.timeAndAgo({ time: when(s.lastContact, now), ago: agoWords(s.lastContact, now) });
  const running = device.running;
  return html`<article class="device ${s.connected ? '' : 'down'}" data-device-id="${device.id}">
<header><h3>${device.name}</h3><span class="badge ${s.connected ? 'ok' : 'err'}">${say.render(
    s.connected ? pageMessages.connected() : pageMessages.notConnected(),
  )}</span></header>
<p class="summary">${say.render(s.summary)}</p>
${s.warnings.length > 0 && html`<ul class="warnings">${s.warnings.map((w) => html`<li>${say.render(w)}</li>`)}</ul>`}
<dl class="facts">
${factRows(staff, device.driver, now, say)}
<dt>${say.render(pageMessages.labelQueue())}</dt><dd>${
    running
      ? html`${say.render(pageMessages.queueWorkingOn())} <code>${running.commandId}</code> <progress max="1" value="${running.progress}"></progress> ${Math.round(
          running.progress * 100,
        )}%, `
      : `${say.render(pageMessages.queueIdle())}, `
  }${say.render(pageMessages.queueWaiting({ count: device.queued }))}</dd>
<dt>${say.render(pageMessages.labelLastContact())}</dt><dd>${say.render(contact)}</dd>
</dl>
<details class="technical" data-key="technical-${device.id}"><summary>${say.render(pageMessages.technicalDetails())}</summary>
<dl class="facts">
<dt>${say.render(pageMessages.labelType())}</dt><dd>${say.render(TYPE_WORDS[device.type]())} · ${device.driver}</dd>
${factRows(technical, device.driver, now, say)}
</dl>
</details>
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
