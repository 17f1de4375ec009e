import type { MessageRenderer } from '../../messages/render.js';
import type { AgentSnapshot, DeviceActionInfo, DeviceSnapshot } from '../../status-model.js';
import { html, join, type SafeHtml } from './html.js';

/**
 * The page's "Device actions": one small form per action a driver declares (`Driver.actions`),
 * posting to `actions/<device>/<action>` with the page's CSRF token. Rendered once with the page
 * (devices and their actions do not change while the agent runs), so live updates never replace
 * a form being filled in. The script submits a form with `fetch` and shows the Notes under it;
 * without JavaScript the form posts and the page that follows shows the outcome (`notice`).
 */

/** What an action did, shown on the page that follows a plain (script-less) form submission. */
export interface ActionNotice {
  ok: boolean;
  title: string;
  notes: string;
}

function field(
  device: DeviceSnapshot,
  action: DeviceActionInfo,
  f: DeviceActionInfo['fields'][number],
  say: MessageRenderer,
): SafeHtml {
  const id = `f-${device.id}-${action.name}-${f.name}`;
  return html`<label for="${id}">${say.render(f.label)}<input id="${id}" name="${f.name}" type="${f.kind === 'date' ? 'date' : 'text'}"${
    f.required ? html` required` : ''
  } maxlength="64" autocomplete="off" spellcheck="false" placeholder="${f.placeholder ?? ''}"></label>`;
}

function form(
  device: DeviceSnapshot,
  action: DeviceActionInfo,
  csrfToken: string,
  say: MessageRenderer,
): SafeHtml {
  return html`<form class="device-action" method="post" action="actions/${encodeURIComponent(device.id)}/${encodeURIComponent(action.name)}" data-device-id="${device.id}" data-action="${action.name}">
<input type="hidden" name="csrf" value="${csrfToken}">
<p class="muted">${say.render(action.description)}</p>
${action.fields.map((f) => field(device, action, f, say))}
${action.confirm ? html`<label class="confirm"><input type="checkbox" name="confirm" value="yes" required> ${say.render(action.confirm)}</label>` : ''}
<button type="submit">${say.render(action.label)}</button>
<output class="action-result" aria-live="polite"></output>
</form>`;
}

export function renderDeviceActions(
  snapshot: AgentSnapshot,
  csrfToken: string,
  notice: ActionNotice | undefined,
  say: MessageRenderer,
): SafeHtml | undefined {
  const devices = snapshot.devices.filter((d) => d.actions && d.actions.length > 0);
  if (devices.length === 0) return undefined;
  const shown = notice
    ? html`<p id="action-notice" class="badge ${notice.ok ? 'ok' : 'err'}" aria-live="polite">${notice.title}: ${notice.notes}</p>`
    : '';
  return html`${shown}${join(
    devices.map(
      (d) =>
        html`<article class="device-actions" data-device-id="${d.id}"><h3>${d.name}</h3>${join(
          (d.actions ?? []).map((a) => form(d, a, csrfToken, say)),
        )}</article>`,
    ),
  )}`;
}
