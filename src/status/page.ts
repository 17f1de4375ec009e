import type { AgentSnapshot, Health } from '../agent-api.js';
import type { ActionNotice } from './device-actions.js';
import { html, type SafeHtml, trusted } from './html.js';
import { DEFAULT_LOCAL_ACTION_LIMITS } from './local-actions.js';
import { PAGE_CSS, PAGE_SCRIPT } from './page-assets.js';
import { renderDeviceActions } from './render-actions.js';
import { renderChart } from './render-chart.js';
import { renderCommands } from './render-commands.js';
import { renderDevices } from './render-devices.js';
import { renderAttention, renderPlatform, renderSummary } from './render-overview.js';

/** The parts of the page that live updates replace, by element id. */
export const SECTION_IDS = ['summary', 'attention', 'platform', 'devices', 'chart', 'commands'] as const;
export type SectionId = (typeof SECTION_IDS)[number];

/** Renders every live section from one snapshot; the same markup serves the page and SSE. */
export function renderSections(snapshot: AgentSnapshot, health: Health): Record<SectionId, SafeHtml> {
  const { now, timezone } = snapshot;
  return {
    summary: renderSummary(snapshot, health),
    attention: renderAttention(snapshot, health),
    platform: renderPlatform(snapshot),
    devices: renderDevices(snapshot.devices, now, timezone),
    chart: renderChart(snapshot.perMinute, now, timezone),
    commands: renderCommands(snapshot.recent, now, timezone),
  };
}

export interface PageOptions {
  snapshot: AgentSnapshot;
  health: Health;
  /** The CSP nonce of this response (base64). */
  nonce: string;
  /** The per-process CSRF token the Cut keys form must send back. */
  csrfToken: string;
  /** What the previous form POST did, when it was a plain (script-less) submission. */
  notice?: { commandId: string } | { error: string };
  /** The form's upper bound for keys (`status.actions.maxKeyCount`); default 10. */
  maxKeyCount?: number;
  /** What the previous device action did, when it was a plain (script-less) form submission. */
  actionNotice?: ActionNotice;
}

/** An inline icon, so the browser asks the agent for nothing but the page. */
const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%232456a6'/%3E%3C/svg%3E";

function renderCutKeys(
  snapshot: AgentSnapshot,
  csrfToken: string,
  notice: PageOptions['notice'],
  maxKeyCount: number,
): SafeHtml {
  const cutters = snapshot.devices.filter((d) => d.type === 'KeyCutter');
  const result =
    notice === undefined
      ? html`<p id="cut-result" aria-live="polite"></p>`
      : 'commandId' in notice
        ? html`<p id="cut-result" class="badge info" aria-live="polite" data-command-id="${notice.commandId}">Command ${notice.commandId} created; its progress shows in Recent commands.</p>`
        : html`<p id="cut-result" class="badge err" aria-live="polite">${notice.error}</p>`;
  if (cutters.length === 0) {
    return html`<p class="muted">No key encoder is configured.</p>${result}`;
  }
  return html`<form id="cut-form" class="cut" method="post" action="cut-keys">
<input type="hidden" name="csrf" value="${csrfToken}">
<label>Encoder<select name="deviceId" required>${cutters.map(
    (d) => html`<option value="${d.id}">${d.name}${d.status.connected ? '' : ' (not connected)'}</option>`,
  )}</select></label>
${renderEnterprises(snapshot.enterpriseIds ?? [])}<label>Reservation id<input name="reservationId" required maxlength="100" autocomplete="off" spellcheck="false"></label>
<label>Keys<input name="keyCount" type="number" min="1" max="${maxKeyCount}" value="1" required></label>
<button type="submit">Cut keys</button>
</form>
${result}`;
}

/** The enterprise choice of the Cut keys form: only when several are configured (one is implied). */
function renderEnterprises(enterprises: readonly string[]): SafeHtml {
  if (enterprises.length < 2) return html``;
  return html`<label>Enterprise<select name="enterpriseId" required>${enterprises.map(
    (id) => html`<option value="${id}">${id}</option>`,
  )}</select></label>
`;
}

/** The whole page: inline CSS and script under the response's nonce, nothing loaded from elsewhere. */
export function renderPage(options: PageOptions): string {
  const { snapshot, health, nonce, csrfToken } = options;
  const s = renderSections(snapshot, health);
  const deviceActions = renderDeviceActions(snapshot, csrfToken, options.actionNotice);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Front desk agent</title>
<link rel="icon" href="${FAVICON}">
<style nonce="${nonce}">${trusted(PAGE_CSS)}</style>
</head>
<body>
<header class="top"><h1>Front desk agent</h1><div id="summary">${s.summary}</div><span id="live" class="badge warn">Connecting…</span></header>
<main>
<section class="wide"><h2>Needs attention</h2><div id="attention">${s.attention}</div></section>
<section><h2>Platform link</h2><div id="platform">${s.platform}</div></section>
<section><h2>Cut keys</h2>${renderCutKeys(
    snapshot,
    csrfToken,
    options.notice,
    options.maxKeyCount ?? DEFAULT_LOCAL_ACTION_LIMITS.maxKeyCount,
  )}</section>
<section class="wide"><h2>Devices</h2><div id="devices">${s.devices}</div></section>
${deviceActions && html`<section class="wide" id="device-actions"><h2>Device actions</h2>${deviceActions}</section>`}
<section class="wide"><h2>Commands per minute, last hour</h2><div id="chart">${s.chart}</div></section>
<section class="wide"><h2>Recent commands</h2><div id="commands">${s.commands}</div></section>
</main>
<footer><a href="status.json">status.json</a> · <a href="metrics">metrics</a> · <a href="healthz">healthz</a></footer>
<script nonce="${nonce}">${trusted(PAGE_SCRIPT)}</script>
</body>
</html>`.value;
}
