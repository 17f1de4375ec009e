import type { RateLimitState } from '../../connector/rate-budget.js';
import { errorCodeNote, isErrorCode } from '../../errors.js';
import { type Message, readMessage } from '../../messages/message.js';
import type { MessageRenderer } from '../../messages/render.js';
import type { AgentSnapshot, Health } from '../../status-model.js';
import { agoWords, when } from './format.js';
import { html, join, type SafeHtml } from './html.js';
import { pageMessages } from './messages.js';

/** One thing staff or IT should act on, with what to do about it. */
export interface AttentionItem {
  level: 'error' | 'warn';
  what: Message;
  todo?: Message;
}

const RECENT_FAILURE_WINDOW_MS = 60 * 60_000;
const OUTBOX_LATE_MS = 60_000;

const COMMAND_WORDS: Record<string, () => Message> = {
  fiscal: pageMessages.commandFiscal,
  keys: pageMessages.commandKeys,
  print: pageMessages.commandPrint,
  invalid: pageMessages.commandInvalid,
};

/** Collects the problems worth showing at the top of the page, most severe first. */
export function attentionItems(snapshot: AgentSnapshot, health: Health): AttentionItem[] {
  const items: AttentionItem[] = [];
  const { platform, now } = snapshot;
  if (platform.authRejected) {
    items.push({ level: 'error', what: pageMessages.tokensRefused(), todo: errorCodeNote('PLATFORM_AUTH') });
  }
  for (const reason of health.reasons) items.push({ level: 'error', what: readMessage(reason) });
  for (const device of snapshot.devices) {
    if (!device.status.connected) {
      items.push({
        level: 'error',
        what: pageMessages.deviceSays({ device: device.name, what: readMessage(device.status.summary) }),
        todo: errorCodeNote('DEVICE_UNAVAILABLE'),
      });
    }
    for (const warning of device.status.warnings)
      items.push({
        level: 'warn',
        what: pageMessages.deviceSays({ device: device.name, what: readMessage(warning) }),
      });
  }
  const lastError = platform.lastError;
  if (lastError && !platform.authRejected && (platform.lastSuccessAt ?? 0) < lastError.at) {
    items.push({
      level: 'warn',
      what: pageMessages.platformSays({ error: lastError.message }),
      ...(isErrorCode(lastError.code) ? { todo: errorCodeNote(lastError.code) } : {}),
    });
  }
  const limited = platform.rateLimited;
  if (limited) {
    const state =
      limited.blockedUntil > now
        ? pageMessages.blockedUntil({ until: when(limited.blockedUntil, now) })
        : limited.probing
          ? pageMessages.probing()
          : pageMessages.nextIsProbe();
    items.push({
      level: 'warn',
      what: pageMessages.slowDown({
        how: describeRateLimit(limited),
        since: when(limited.since, now),
        state,
      }),
      todo: errorCodeNote('RATE_LIMITED'),
    });
  } else if (platform.budget.blockedUntil !== undefined && platform.budget.blockedUntil > now) {
    items.push({
      level: 'warn',
      what: pageMessages.slowDownUntil({ until: when(platform.budget.blockedUntil, now) }),
      todo: errorCodeNote('RATE_LIMITED'),
    });
  }
  if (snapshot.outbox.pending > 0 && snapshot.outbox.oldestAt !== undefined) {
    const age = now - snapshot.outbox.oldestAt;
    if (age > OUTBOX_LATE_MS) {
      items.push({
        level: 'warn',
        what: pageMessages.outboxLate({ count: snapshot.outbox.pending, age: { ms: age } }),
        todo: pageMessages.outboxLateTodo(),
      });
    }
  }
  for (const command of snapshot.recent) {
    if (command.state !== 'Error' || now - (command.finishedAt ?? command.seenAt) > RECENT_FAILURE_WINDOW_MS)
      continue;
    const todo = command.error
      ? readMessage(command.error.notes)
      : command.notes && readMessage(command.notes);
    const subject = {
      device: command.deviceName,
      what: (COMMAND_WORDS[command.kind] ?? pageMessages.commandOther)(),
      id: command.id,
    };
    items.push({
      level: 'warn',
      what: command.error
        ? pageMessages.commandFailed({ ...subject, code: command.error.code })
        : pageMessages.commandFailedNoCode(subject),
      ...(todo ? { todo } : {}),
    });
  }
  return items.sort((a, b) => (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1));
}

/** `2 × 429, Retry-After 86400 s, waiting at most 300 s` */
export function describeRateLimit(limited: RateLimitState): Message {
  const asked =
    limited.askedMs === undefined
      ? pageMessages.noRetryAfter()
      : limited.reason === 'retry-after-capped'
        ? pageMessages.retryAfterCapped({ asked: { ms: limited.askedMs }, wait: { ms: limited.waitMs } })
        : pageMessages.retryAfter({ asked: { ms: limited.askedMs } });
  return pageMessages.rateLimit({ count: limited.count, asked });
}

/** The header line: overall health, version, uptime and totals. */
export function renderSummary(snapshot: AgentSnapshot, health: Health, say: MessageRenderer): SafeHtml {
  const t = snapshot.totals;
  return html`<span class="badge ${health.ok ? 'ok' : 'err'}" data-health="${health.ok ? 'ok' : 'failing'}">${say.render(
    health.ok ? pageMessages.working() : pageMessages.needsAttention(),
  )}</span>
<span>${say.render(pageMessages.version({ version: snapshot.version }))}</span>
<span>${say.render(pageMessages.up({ duration: { ms: snapshot.now - snapshot.startedAt } }))}</span>
<span>${say.render(pageMessages.totals(t))}</span>
<span class="muted">${say.render(pageMessages.updated({ time: { at: snapshot.now, show: 'time' } }))}</span>`;
}

export function renderAttention(snapshot: AgentSnapshot, health: Health, say: MessageRenderer): SafeHtml {
  const items = attentionItems(snapshot, health);
  if (items.length === 0)
    return html`<p class="ok-line">${say.render(pageMessages.nothingNeedsAttention())}</p>`;
  return html`<ul class="attention">${items.map(
    (item) =>
      html`<li class="${item.level}"><strong>${say.render(item.what)}</strong>${
        item.todo && html`<br><span>${say.render(pageMessages.whatToDo({ todo: item.todo }))}</span>`
      }</li>`,
  )}</ul>`;
}

const SOCKET_WORDS = {
  open: pageMessages.websocketUp,
  disabled: pageMessages.websocketOff,
  connecting: pageMessages.websocketConnecting,
  down: pageMessages.websocketDown,
} as const;

export function renderPlatform(snapshot: AgentSnapshot, say: MessageRenderer): SafeHtml {
  const p = snapshot.platform;
  const { now } = snapshot;
  const connected =
    !p.authRejected && p.lastSuccessAt !== undefined && (!p.lastError || p.lastError.at <= p.lastSuccessAt);
  const socketClass = p.websocket === 'open' ? 'ok' : p.websocket === 'disabled' ? 'info' : 'warn';
  const socket = html`<span class="badge ${socketClass}">${say.render(SOCKET_WORDS[p.websocket]())}</span>`;
  const budget = p.budget;
  const budgetWords = pageMessages.budget({
    used: budget.used,
    limit: budget.limit,
    window: { ms: budget.windowMs },
  });
  const dt = (label: Message) => say.render(label);
  const rows = [
    html`<dt>${dt(pageMessages.labelPlatform())}</dt><dd>${p.url}</dd>`,
    html`<dt>${dt(pageMessages.labelLink())}</dt><dd><span class="badge ${connected ? 'ok' : p.authRejected ? 'err' : 'warn'}" data-platform="${
      connected ? 'connected' : 'disconnected'
    }">${say.render(
      connected
        ? pageMessages.connected()
        : p.authRejected
          ? pageMessages.tokensRefusedBadge()
          : pageMessages.notConnected(),
    )}</span> ${socket}</dd>`,
    html`<dt>${dt(pageMessages.labelLastSuccess())}</dt><dd>${
      p.lastSuccessAt === undefined
        ? say.render(pageMessages.never())
        : say.render(
            pageMessages.timeAndAgo({
              time: when(p.lastSuccessAt, now),
              ago: agoWords(p.lastSuccessAt, now),
            }),
          )
    }</dd>`,
    html`<dt>${dt(pageMessages.labelBudget())}</dt><dd><meter min="0" max="${budget.limit}" low="${Math.round(budget.limit * 0.7)}" high="${Math.round(
      budget.limit * 0.9,
    )}" optimum="0" value="${budget.used}"></meter> ${say.render(
      budget.waiting > 0
        ? pageMessages.budgetWaiting({ budget: budgetWords, waiting: budget.waiting })
        : budgetWords,
    )}</dd>`,
  ];
  if (p.rateLimited) {
    const line = pageMessages.rateLimitedSince({
      since: when(p.rateLimited.since, now),
      how: describeRateLimit(p.rateLimited),
    });
    rows.push(
      html`<dt>${dt(pageMessages.labelRateLimited())}</dt><dd data-rate-limited="${p.rateLimited.reason}">${say.render(
        p.rateLimited.blockedUntil > now
          ? pageMessages.rateLimitedNext({ line, at: when(p.rateLimited.blockedUntil, now) })
          : line,
      )}</dd>`,
    );
  }
  if (p.lastError) {
    rows.push(
      html`<dt>${dt(pageMessages.labelLastError())}</dt><dd>${say.render(
        pageMessages.lastError({
          code: p.lastError.code,
          error: p.lastError.message,
          ago: agoWords(p.lastError.at, now),
        }),
      )}</dd>`,
    );
  }
  const pending = snapshot.outbox.pending;
  rows.push(
    html`<dt>${dt(pageMessages.labelToDeliver())}</dt><dd>${
      snapshot.outbox.oldestAt !== undefined
        ? say.render(
            pageMessages.pendingOldest({ count: pending, ago: agoWords(snapshot.outbox.oldestAt, now) }),
          )
        : pending
    }</dd>`,
  );
  return html`<dl class="facts">${join(rows)}</dl>`;
}
