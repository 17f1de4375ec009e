import { stateWord } from '../../commands/index.js';
import type { CommandState } from '../../connector/wire.js';
import { isMessage, type Message, type MessageArg, readMessage } from '../../messages/message.js';
import type { MessageRenderer } from '../../messages/render.js';
import type { CommandSummary } from '../../status-model.js';
import { labelFor, latencyWords, when } from './format.js';
import { html, type SafeHtml } from './html.js';
import { pageMessages } from './messages.js';

const STATE_CLASS: Record<CommandState, string> = {
  Pending: 'info',
  Received: 'info',
  Processing: 'warn',
  Processed: 'ok',
  Cancelled: 'muted',
  Error: 'err',
};

const KIND_WORDS: Record<string, () => Message> = {
  fiscal: pageMessages.kindFiscal,
  keys: pageMessages.kindKeys,
  print: pageMessages.kindPrint,
  invalid: pageMessages.kindInvalid,
};

const RESULT_VALUE_MAX = 120;

/** A detail value a driver gave in the shape of a placeholder value: a list, money, a time… */
function isArg(value: object): value is Exclude<MessageArg, string | number> {
  return isMessage(value) || 'list' in value || 'money' in value || 'at' in value || 'ms' in value;
}

/** One result detail as words: lists joined ("202 and SPA"), money in the locale, yes/no. */
function detailWords(value: unknown, say: MessageRenderer): string {
  if (typeof value === 'boolean') return say.render(value ? pageMessages.yes() : pageMessages.no());
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return say.value({ list: value.map(String) });
  }
  if (typeof value === 'object' && value !== null && isArg(value)) return say.value(value);
  return JSON.stringify(value);
}

/**
 * A result's fields (receipt numbers, card counts …) as `label: value` lines: labels from the
 * driver family's catalogue (`labelFor`), values as words.
 */
export function resultLines(
  result: Record<string, unknown> | undefined,
  driverKind: string | undefined,
  say: MessageRenderer,
): string[] {
  if (!result) return [];
  const lines: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    if (value === undefined || value === null || value === '') continue;
    let text = detailWords(value, say);
    if (text.length > RESULT_VALUE_MAX) text = `${text.slice(0, RESULT_VALUE_MAX - 1)}…`;
    lines.push(say.render(pageMessages.resultLine({ label: labelFor(driverKind, key, say), value: text })));
  }
  return lines;
}

function stateBadge(state: CommandState, say: MessageRenderer): SafeHtml {
  return html`<span class="badge ${STATE_CLASS[state]}">${say.render(stateWord(state))}</span>`;
}

function renderTimeline(command: CommandSummary, now: number, say: MessageRenderer): SafeHtml {
  const first = command.timeline[0]?.at;
  return html`<ol class="timeline">${command.timeline.map(
    (step) =>
      html`<li>${stateBadge(step.state, say)} <time>${say.value(when(step.at, now))}</time>${
        first !== undefined && step.at > first
          ? html` <span class="muted">+${say.render(latencyWords(step.at - first))}</span>`
          : ''
      }</li>`,
  )}</ol>`;
}

function renderCommand(
  command: CommandSummary,
  now: number,
  driverKind: string | undefined,
  say: MessageRenderer,
): SafeHtml {
  const lines = resultLines(command.result, driverKind, say);
  const running = command.state === 'Processing' && command.progress !== undefined;
  return html`<tr data-command-id="${command.id}" data-state="${command.state}">
<td><time>${say.value(when(command.seenAt, now))}</time></td>
<td>${command.deviceName}</td>
<td>${say.render((KIND_WORDS[command.kind] ?? pageMessages.kindOther)())}</td>
<td>${stateBadge(command.state, say)}${
    running ? html` <progress max="1" value="${command.progress}"></progress>` : ''
  }<br><code class="id">${command.id}</code></td>
<td>${renderTimeline(command, now, say)}</td>
<td>${command.notes && html`<p>${say.render(readMessage(command.notes))}</p>`}${
    lines.length > 0 && html`<ul class="result">${lines.map((l) => html`<li>${l}</li>`)}</ul>`
  }${
    command.error &&
    html`<p class="error-text"><strong>${command.error.code}</strong>: ${say.render(readMessage(command.error.notes))}</p>`
  }</td>
</tr>`;
}

/**
 * The recent commands table, newest first as the snapshot gives them. `drivers` names each
 * device's driver kind, for the labels of result details.
 */
export function renderCommands(
  commands: readonly CommandSummary[],
  now: number,
  drivers: ReadonlyMap<string, string>,
  say: MessageRenderer,
): SafeHtml {
  if (commands.length === 0) return html`<p class="muted">${say.render(pageMessages.noCommands())}</p>`;
  const th = (m: Message) => html`<th>${say.render(m)}</th>`;
  return html`<div class="scroll"><table class="commands">
<thead><tr>${th(pageMessages.columnSeen())}${th(pageMessages.columnDevice())}${th(pageMessages.columnKind())}${th(
    pageMessages.columnState(),
  )}${th(pageMessages.columnTimeline())}${th(pageMessages.columnNotes())}</tr></thead>
<tbody>${commands.map((c) => renderCommand(c, now, drivers.get(c.deviceId), say))}</tbody>
</table></div>`;
}
