import type { CommandSummary } from '../agent-api.js';
import type { CommandState } from '../connector/wire.js';
import { formatLatency, formatTime, humanizeKey } from './format.js';
import { html, type SafeHtml } from './html.js';

const STATE_CLASS: Record<CommandState, string> = {
  Pending: 'info',
  Received: 'info',
  Processing: 'warn',
  Processed: 'ok',
  Cancelled: 'muted',
  Error: 'err',
};

const RESULT_VALUE_MAX = 120;

/** A result's fields (receipt numbers, card counts …) as short `key: value` strings. */
export function resultLines(result: Record<string, unknown> | undefined): string[] {
  if (!result) return [];
  const lines: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    if (value === undefined || value === null || value === '') continue;
    let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    if (text.length > RESULT_VALUE_MAX) text = `${text.slice(0, RESULT_VALUE_MAX - 1)}…`;
    lines.push(`${humanizeKey(key)}: ${text}`);
  }
  return lines;
}

function renderTimeline(command: CommandSummary, now: number, timezone: string): SafeHtml {
  const first = command.timeline[0]?.at;
  return html`<ol class="timeline">${command.timeline.map(
    (step) =>
      html`<li><span class="badge ${STATE_CLASS[step.state]}">${step.state}</span> <time>${formatTime(step.at, now, timezone)}</time>${
        first !== undefined && step.at > first
          ? html` <span class="muted">+${formatLatency(step.at - first)}</span>`
          : ''
      }</li>`,
  )}</ol>`;
}

function renderCommand(command: CommandSummary, now: number, timezone: string): SafeHtml {
  const lines = resultLines(command.result);
  const running = command.state === 'Processing' && command.progress !== undefined;
  return html`<tr data-command-id="${command.id}" data-state="${command.state}">
<td><time>${formatTime(command.seenAt, now, timezone)}</time></td>
<td>${command.deviceName}</td>
<td>${command.kind}</td>
<td><span class="badge ${STATE_CLASS[command.state]}">${command.state}</span>${
    running ? html` <progress max="1" value="${command.progress}"></progress>` : ''
  }<br><code class="id">${command.id}</code></td>
<td>${renderTimeline(command, now, timezone)}</td>
<td>${command.notes && html`<p>${command.notes}</p>`}${
    lines.length > 0 && html`<ul class="result">${lines.map((l) => html`<li>${l}</li>`)}</ul>`
  }${command.error && html`<p class="error-text"><strong>${command.error.code}</strong>: ${command.error.notes}</p>`}</td>
</tr>`;
}

/** The recent commands table, newest first as the snapshot gives them. */
export function renderCommands(commands: readonly CommandSummary[], now: number, timezone: string): SafeHtml {
  if (commands.length === 0) return html`<p class="muted">No commands yet.</p>`;
  return html`<div class="scroll"><table class="commands">
<thead><tr><th>Seen</th><th>Device</th><th>Kind</th><th>State</th><th>Timeline</th><th>Notes and result</th></tr></thead>
<tbody>${commands.map((c) => renderCommand(c, now, timezone))}</tbody>
</table></div>`;
}
