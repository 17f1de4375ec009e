import { stateWord } from '../../commands/index.js';
import { COMMAND_STATES } from '../../connector/wire.js';
import type { Locale } from '../../messages/catalogue.js';
import { type MessageRenderer, messageRenderer } from '../../messages/render.js';
import type { AgentSnapshot, Health } from '../../status-model.js';
import { html, type SafeHtml, trusted } from './html.js';
import { pageMessages } from './messages.js';
import { queueMessages } from './messages-queue.js';
import { PAGE_CSS, PAGE_SCRIPT } from './page-assets.js';
import { type ActionNotice, renderDeviceActions } from './render-actions.js';
import { renderChart } from './render-chart.js';
import { renderCommands } from './render-commands.js';
import { renderDevices } from './render-devices.js';
import { renderAttention, renderPlatform, renderSummary } from './render-overview.js';
import { renderDeliverNow, renderWaiting } from './render-queue.js';

/** The parts of the page that live updates replace, by element id. */
export const SECTION_IDS = [
  'summary',
  'attention',
  'platform',
  'waiting',
  'devices',
  'chart',
  'commands',
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

/** The page's words in `locale`, with times in the property's zone (the snapshot's). */
export function pageRenderer(snapshot: AgentSnapshot, locale: Locale): MessageRenderer {
  return messageRenderer(locale, snapshot.timezone);
}

/**
 * Renders every live section from one snapshot, in `locale`; the same markup serves the page and
 * SSE.
 */
export function renderSections(
  snapshot: AgentSnapshot,
  health: Health,
  locale: Locale = 'en',
): Record<SectionId, SafeHtml> {
  const say = pageRenderer(snapshot, locale);
  const drivers = new Map(snapshot.devices.map((d) => [d.id, d.driver]));
  return {
    summary: renderSummary(snapshot, health, say),
    attention: renderAttention(snapshot, health, say),
    platform: renderPlatform(snapshot, say),
    waiting: renderWaiting(snapshot, say),
    devices: renderDevices(snapshot.devices, snapshot.now, say),
    chart: renderChart(snapshot.perMinute, say),
    commands: renderCommands(snapshot.recent, snapshot.now, drivers, say),
  };
}

export interface PageOptions {
  snapshot: AgentSnapshot;
  health: Health;
  /** The CSP nonce of this response (base64). */
  nonce: string;
  /** The page session's CSRF token, which its forms send back (empty outside a session). */
  csrfToken: string;
  /** What the previous form POST did, when it was a plain (script-less) submission. */
  notice?: { commandId: string } | { error: string };
  /** The form's upper bound for keys (`status.actions.maxKeyCount`). */
  maxKeyCount: number;
  /** What the previous device action did, when it was a plain (script-less) form submission. */
  actionNotice?: ActionNotice;
  /** What the previous "Try delivery now" did, when it was a plain form submission. */
  queueNotice?: ActionNotice;
  /** The page's language (the config's `locale`); English by default. */
  locale?: Locale;
}

/** An inline icon, so the browser asks the agent for nothing but the page. */
const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%232456a6'/%3E%3C/svg%3E";

function renderCutKeys(
  snapshot: AgentSnapshot,
  csrfToken: string,
  notice: PageOptions['notice'],
  maxKeyCount: number,
  say: MessageRenderer,
): SafeHtml {
  const cutters = snapshot.devices.filter((d) => d.type === 'KeyCutter');
  const result =
    notice === undefined
      ? html`<p id="cut-result" aria-live="polite"></p>`
      : 'commandId' in notice
        ? html`<p id="cut-result" class="badge info" aria-live="polite" data-command-id="${notice.commandId}">${say.render(
            pageMessages.cutCreated({ id: notice.commandId }),
          )}</p>`
        : html`<p id="cut-result" class="badge err" aria-live="polite">${notice.error}</p>`;
  if (cutters.length === 0) {
    return html`<p class="muted">${say.render(pageMessages.noEncoder())}</p>${result}`;
  }
  return html`<form id="cut-form" class="cut" method="post" action="cut-keys">
<input type="hidden" name="csrf" value="${csrfToken}">
<label>${say.render(pageMessages.formEncoder())}<select name="deviceId" required>${cutters.map(
    (d) =>
      html`<option value="${d.id}">${d.status.connected ? d.name : say.render(pageMessages.formNotConnected({ name: d.name }))}</option>`,
  )}</select></label>
${renderEnterprises(snapshot.enterpriseIds ?? [], say)}<label>${say.render(pageMessages.formReservation())}<input name="reservationId" required maxlength="100" autocomplete="off" spellcheck="false"></label>
<label>${say.render(pageMessages.formKeys())}<input name="keyCount" type="number" min="1" max="${maxKeyCount}" value="1" required></label>
<button type="submit">${say.render(pageMessages.formSubmit())}</button>
</form>
${result}`;
}

/** The enterprise choice of the Cut keys form: only when several are configured (one is implied). */
function renderEnterprises(enterprises: readonly string[], say: MessageRenderer): SafeHtml {
  if (enterprises.length < 2) return html``;
  return html`<label>${say.render(pageMessages.formEnterprise())}<select name="enterpriseId" required>${enterprises.map(
    (id) => html`<option value="${id}">${id}</option>`,
  )}</select></label>
`;
}

/**
 * The live script's words, rendered here in the page's language: `{id}`, `{state}`, `{code}`,
 * `{percent}` and `{status}` stay as tokens the script fills in.
 */
function scriptWords(say: MessageRenderer): Record<string, unknown> {
  const token = { id: '{id}', state: '{state}', code: '{code}' };
  return {
    live: say.render(pageMessages.live()),
    reconnecting: say.render(pageMessages.reconnecting()),
    sending: say.render(pageMessages.scriptSending()),
    waiting: say.render(pageMessages.scriptWaiting(token)),
    state: say.render(pageMessages.scriptState(token)),
    stateCode: say.render(pageMessages.scriptStateCode(token)),
    cutting: say.render(pageMessages.scriptCutting({ id: '{id}', percent: '{percent}' })),
    refused: say.render(pageMessages.scriptRefused({ status: '{status}' })),
    unreachable: say.render(pageMessages.scriptUnreachable()),
    states: Object.fromEntries(COMMAND_STATES.map((s) => [s, say.render(stateWord(s))])),
  };
}

/**
 * The start of every page the agent serves, up to `</head>`: the document's language, its title,
 * the inline icon and the stylesheet under the response's CSP nonce — nothing for the browser to
 * fetch from the agent or elsewhere. The status page and the login page share it.
 */
export function pageHead(locale: Locale, title: string, nonce: string): SafeHtml {
  return html`<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title}</title>
<link rel="icon" href="${FAVICON}">
<style nonce="${nonce}">${trusted(PAGE_CSS)}</style>
</head>`;
}

/** The whole page: inline CSS and script under the response's nonce, nothing loaded from elsewhere. */
export function renderPage(options: PageOptions): string {
  const { snapshot, health, nonce, csrfToken } = options;
  const locale = options.locale ?? 'en';
  const say = pageRenderer(snapshot, locale);
  const s = renderSections(snapshot, health, locale);
  const title = say.render(pageMessages.title());
  const deviceActions = renderDeviceActions(snapshot, csrfToken, options.actionNotice, say);
  return html`${pageHead(locale, title, nonce)}
<body data-words="${JSON.stringify(scriptWords(say))}">
<header class="top"><h1>${title}</h1><div id="summary">${s.summary}</div><span id="live" class="badge warn">${say.render(
    pageMessages.connecting(),
  )}</span></header>
<main>
<section class="wide"><h2>${say.render(pageMessages.headingAttention())}</h2><div id="attention">${s.attention}</div></section>
<section><h2>${say.render(pageMessages.headingPlatform())}</h2><div id="platform">${s.platform}</div></section>
<section id="queue"><h2>${say.render(queueMessages.heading())}</h2><div id="waiting">${s.waiting}</div>${
    csrfToken && renderDeliverNow(csrfToken, say)
  }${options.queueNotice ? html`<p id="queue-notice" class="badge ${options.queueNotice.ok ? 'ok' : 'err'}" aria-live="polite">${options.queueNotice.title}: ${options.queueNotice.notes}</p>` : ''}</section>
<section><h2>${say.render(pageMessages.headingCutKeys())}</h2>${renderCutKeys(
    snapshot,
    csrfToken,
    options.notice,
    options.maxKeyCount,
    say,
  )}</section>
<section class="wide"><h2>${say.render(pageMessages.headingDevices())}</h2><div id="devices">${s.devices}</div></section>
${deviceActions && html`<section class="wide" id="device-actions"><h2>${say.render(pageMessages.headingDeviceActions())}</h2>${deviceActions}</section>`}
<section class="wide"><h2>${say.render(pageMessages.headingChart())}</h2><div id="chart">${s.chart}</div></section>
<section class="wide"><h2>${say.render(pageMessages.headingRecent())}</h2><div id="commands">${s.commands}</div></section>
</main>
<footer><a href="status.json">status.json</a> · <a href="metrics">metrics</a> · <a href="healthz">healthz</a>${
    csrfToken &&
    html` · <form class="logout" method="post" action="logout"><input type="hidden" name="csrf" value="${csrfToken}"><button type="submit">${say.render(
      pageMessages.logout(),
    )}</button></form>`
  }</footer>
<script nonce="${nonce}">${trusted(PAGE_SCRIPT)}</script>
</body>
</html>`.value;
}
