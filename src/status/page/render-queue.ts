import type { MessageRenderer } from '../../messages/render.js';
import type { AgentSnapshot } from '../../status-model.js';
import { html, type SafeHtml } from './html.js';
import { queueMessages } from './messages-queue.js';
import { waitingLines } from './queue-words.js';

/**
 * The page's Waiting section (live): each device's queue and the outbox, with why they wait
 * (`queue-words.ts`). The "Try delivery now" form is rendered apart, once with the page
 * (`renderDeliverNow`), so a live update never replaces it while it is being sent.
 */
export function renderWaiting(snapshot: AgentSnapshot, say: MessageRenderer): SafeHtml {
  const lines = waitingLines(snapshot);
  if (lines.length === 0)
    return html`<p class="ok-line" data-waiting="0">${say.render(queueMessages.nothingWaits())}</p>`;
  return html`<ul class="waiting">${lines.map(
    (line) =>
      html`<li data-waiting="${line.subject}"${line.deviceId ? html` data-queue-device="${line.deviceId}"` : ''} data-count="${line.count}"${
        line.why ? html` class="warn"` : ''
      }>${say.render(line.why ? queueMessages.line({ what: line.what, why: line.why }) : line.what)}</li>`,
  )}</ul>`;
}

/**
 * The staff action "Try delivery now": a form posting to `outbox/deliver-now` with the session's
 * CSRF token; the page's script sends it with `fetch` (it is a `device-action` form) and shows the
 * answer under it; without JavaScript the page that follows the redirect shows it.
 */
export function renderDeliverNow(csrfToken: string, say: MessageRenderer): SafeHtml {
  return html`<form id="deliver-now" class="device-action" method="post" action="outbox/deliver-now">
<input type="hidden" name="csrf" value="${csrfToken}">
<p class="muted">${say.render(queueMessages.deliverNowDescription())}</p>
<button type="submit">${say.render(queueMessages.deliverNowLabel())}</button>
<output class="action-result" aria-live="polite"></output>
</form>`;
}
