import type { AgentSnapshot, Health } from '../agent-api.js';
import type { RateLimitState } from '../connector/rate-budget.js';
import { ERROR_CODES, isErrorCode } from '../errors.js';
import { formatAgo, formatDuration, formatTime } from './format.js';
import { html, join, type SafeHtml } from './html.js';

/** One thing staff or IT should act on, with what to do about it. */
export interface AttentionItem {
  level: 'error' | 'warn';
  what: string;
  todo?: string;
}

const RECENT_FAILURE_WINDOW_MS = 60 * 60_000;
const OUTBOX_LATE_MS = 60_000;

/** Collects the problems worth showing at the top of the page, most severe first. */
export function attentionItems(snapshot: AgentSnapshot, health: Health): AttentionItem[] {
  const items: AttentionItem[] = [];
  const { platform, now } = snapshot;
  if (platform.authRejected) {
    items.push({
      level: 'error',
      what: 'The platform refuses the agent’s tokens: no command can be picked up.',
      todo: ERROR_CODES.PLATFORM_AUTH.notes,
    });
  }
  for (const reason of health.reasons) items.push({ level: 'error', what: reason });
  for (const device of snapshot.devices) {
    if (!device.status.connected) {
      items.push({
        level: 'error',
        what: `${device.name}: ${device.status.summary}`,
        todo: ERROR_CODES.DEVICE_UNAVAILABLE.notes,
      });
    }
    for (const warning of device.status.warnings)
      items.push({ level: 'warn', what: `${device.name}: ${warning}` });
  }
  const lastError = platform.lastError;
  if (lastError && !platform.authRejected && (platform.lastSuccessAt ?? 0) < lastError.at) {
    items.push({
      level: 'warn',
      what: `Platform: ${lastError.message}`,
      ...(isErrorCode(lastError.code) ? { todo: ERROR_CODES[lastError.code].notes } : {}),
    });
  }
  const limited = platform.rateLimited;
  if (limited) {
    const tz = snapshot.timezone;
    const state =
      limited.blockedUntil > now
        ? `nothing is sent until ${formatTime(limited.blockedUntil, now, tz)}, then one probe request`
        : limited.probing
          ? 'one probe request is out to see whether it accepts requests again'
          : 'the next request is a probe';
    items.push({
      level: 'warn',
      what: `The platform asked the agent to slow down (${describeRateLimit(limited)}, since ${formatTime(limited.since, now, tz)}); ${state}.`,
      todo: ERROR_CODES.RATE_LIMITED.notes,
    });
  } else if (platform.budget.blockedUntil !== undefined && platform.budget.blockedUntil > now) {
    items.push({
      level: 'warn',
      what: `The platform asked the agent to slow down; nothing is sent until ${formatTime(platform.budget.blockedUntil, now, snapshot.timezone)}.`,
      todo: ERROR_CODES.RATE_LIMITED.notes,
    });
  }
  if (snapshot.outbox.pending > 0 && snapshot.outbox.oldestAt !== undefined) {
    const age = now - snapshot.outbox.oldestAt;
    if (age > OUTBOX_LATE_MS) {
      items.push({
        level: 'warn',
        what: `${snapshot.outbox.pending} result(s) not yet delivered to the platform, the oldest for ${formatDuration(age)}.`,
        todo: 'The agent keeps retrying; check the platform link above.',
      });
    }
  }
  for (const command of snapshot.recent) {
    if (command.state !== 'Error' || now - (command.finishedAt ?? command.seenAt) > RECENT_FAILURE_WINDOW_MS)
      continue;
    const todo = command.error?.notes ?? command.notes;
    items.push({
      level: 'warn',
      what: `${command.deviceName}: ${command.kind} command ${command.id} failed${command.error ? ` (${command.error.code})` : ''}.`,
      ...(todo ? { todo } : {}),
    });
  }
  return items.sort((a, b) => (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1));
}

/** `2 × 429, Retry-After 86400 s, waiting at most 300 s` */
export function describeRateLimit(limited: RateLimitState): string {
  const asked =
    limited.askedMs === undefined
      ? 'no Retry-After, the agent backs off by itself'
      : `Retry-After ${formatDuration(limited.askedMs)}${
          limited.reason === 'retry-after-capped' ? `, waiting at most ${formatDuration(limited.waitMs)}` : ''
        }`;
  return `${limited.count} × 429, ${asked}`;
}

/** The header line: overall health, version, uptime and totals. */
export function renderSummary(snapshot: AgentSnapshot, health: Health): SafeHtml {
  const t = snapshot.totals;
  return html`<span class="badge ${health.ok ? 'ok' : 'err'}" data-health="${health.ok ? 'ok' : 'failing'}">${
    health.ok ? 'Working' : 'Needs attention'
  }</span>
<span>Version ${snapshot.version}</span>
<span>Up ${formatDuration(snapshot.now - snapshot.startedAt)}</span>
<span>${t.processed} done · ${t.failed} failed · ${t.cancelled} cancelled · ${t.inFlight} in progress</span>
<span class="muted">Updated ${formatTime(snapshot.now, snapshot.now, snapshot.timezone)}</span>`;
}

export function renderAttention(snapshot: AgentSnapshot, health: Health): SafeHtml {
  const items = attentionItems(snapshot, health);
  if (items.length === 0) return html`<p class="ok-line">Nothing needs attention.</p>`;
  return html`<ul class="attention">${items.map(
    (item) =>
      html`<li class="${item.level}"><strong>${item.what}</strong>${item.todo && html`<br><span>What to do: ${item.todo}</span>`}</li>`,
  )}</ul>`;
}

export function renderPlatform(snapshot: AgentSnapshot): SafeHtml {
  const p = snapshot.platform;
  const { now, timezone } = snapshot;
  const connected =
    !p.authRejected && p.lastSuccessAt !== undefined && (!p.lastError || p.lastError.at <= p.lastSuccessAt);
  const socket =
    p.websocket === 'open'
      ? html`<span class="badge ok">WebSocket up</span>`
      : p.websocket === 'disabled'
        ? html`<span class="badge info">Polling (WebSocket off)</span>`
        : html`<span class="badge warn">Polling (WebSocket ${p.websocket})</span>`;
  const budget = p.budget;
  const rows = [
    html`<dt>Platform</dt><dd>${p.url}</dd>`,
    html`<dt>Link</dt><dd><span class="badge ${connected ? 'ok' : p.authRejected ? 'err' : 'warn'}" data-platform="${
      connected ? 'connected' : 'disconnected'
    }">${connected ? 'Connected' : p.authRejected ? 'Tokens refused' : 'Not connected'}</span> ${socket}</dd>`,
    html`<dt>Last successful call</dt><dd>${
      p.lastSuccessAt === undefined
        ? 'never'
        : `${formatTime(p.lastSuccessAt, now, timezone)} (${formatAgo(p.lastSuccessAt, now)})`
    }</dd>`,
    html`<dt>Rate budget</dt><dd><meter min="0" max="${budget.limit}" low="${Math.round(budget.limit * 0.7)}" high="${Math.round(
      budget.limit * 0.9,
    )}" optimum="0" value="${budget.used}"></meter> ${budget.used} of ${budget.limit} per ${formatDuration(budget.windowMs)}${
      budget.waiting > 0 ? `, ${budget.waiting} waiting` : ''
    }</dd>`,
  ];
  if (p.rateLimited) {
    rows.push(
      html`<dt>Rate limited</dt><dd data-rate-limited="${p.rateLimited.reason}">since ${formatTime(p.rateLimited.since, now, timezone)} (${describeRateLimit(p.rateLimited)})${
        p.rateLimited.blockedUntil > now
          ? `; next probe at ${formatTime(p.rateLimited.blockedUntil, now, timezone)}`
          : ''
      }</dd>`,
    );
  }
  if (p.lastError) {
    rows.push(
      html`<dt>Last error</dt><dd>${p.lastError.code}: ${p.lastError.message} (${formatAgo(p.lastError.at, now)})</dd>`,
    );
  }
  rows.push(
    html`<dt>Results to deliver</dt><dd>${snapshot.outbox.pending}${
      snapshot.outbox.oldestAt !== undefined ? ` (oldest ${formatAgo(snapshot.outbox.oldestAt, now)})` : ''
    }</dd>`,
  );
  return html`<dl class="facts">${join(rows)}</dl>`;
}
