import { loadConfig, localeOf } from '../config.js';
import { AgentError } from '../errors.js';
import { createLogger } from '../log.js';
import { messageRenderer } from '../messages/render.js';
import { auditLine } from '../status/actions/index.js';
import { type CliIo, firstSignal, line } from './io.js';
import { cliMessages } from './messages.js';
import { answerJson, StaffLinkError, staffRequest, staffSocketOf } from './staff-link.js';

/**
 * Device actions from the command line (`frontdesk-agent report x|z`, `frontdesk-agent void`):
 * the device is held by the running agent, so the command line asks it through the staff socket
 * (`status.staffSocket`, staff-link.ts) — `POST /actions/<device>/<action>`, as the page does
 * (src/status/actions/device-actions.ts). The kernel tells the agent which Unix user asks; the command
 * line sends no token or CSRF token. The agent validates, rate-limits and audits it (with that
 * uid); the command line writes its own audit line on stderr too, like `cut-keys`. Prints the
 * Notes; exit 0 when the action succeeded, 1 otherwise.
 */

const ACTION_TIMEOUT_MS = 5 * 60_000;
const MAX_ANSWER = 256 * 1024;

export interface DeviceActionOptions {
  config: string;
  device: string;
  action: string;
  params: Record<string, string>;
}

interface Answer {
  notes?: string;
  error?: { code?: string; notes?: string };
}

export async function deviceActionCommand(opts: DeviceActionOptions, io: CliIo): Promise<number> {
  const config = loadConfig(opts.config);
  const device = config.devices.find((d) => d.id === opts.device || d.name === opts.device);
  if (!device) {
    throw new AgentError(
      'CONFIG_INVALID',
      `No device "${opts.device}" in ${opts.config} (give its id or name)`,
    );
  }
  const socket = staffSocketOf(config);
  const say = messageRenderer(localeOf(config, io.env), config.timezone);
  const log = createLogger({ level: 'info', stream: io.stderr });
  const audit = (result: Record<string, string>) =>
    auditLine(
      log,
      'device-action',
      { who: 'command-line', ...(io.env.USER ? { from: io.env.USER } : {}) },
      { device: device.id, action: opts.action },
      result,
    );
  const stop = new AbortController();
  void firstSignal(io, () => undefined).then(() => stop.abort());
  try {
    const response = await staffRequest(socket, config.status.staffGroup, {
      method: 'POST',
      path: `/actions/${encodeURIComponent(device.id)}/${encodeURIComponent(opts.action)}`,
      json: { ...opts.params, confirm: 'yes' },
      timeoutMs: ACTION_TIMEOUT_MS,
      maxBytes: MAX_ANSWER,
      signal: stop.signal,
    });
    const answer = answerJson<Answer>(response);
    if (response.status === 200 && typeof answer.notes === 'string') {
      audit({ result: 'done' });
      line(io.stdout, answer.notes);
      return 0;
    }
    const code = answer.error?.code ?? `HTTP_${response.status}`;
    audit({ result: 'failed', code });
    line(
      io.stderr,
      answer.error?.notes ?? say.render(cliMessages.actionRefused({ status: response.status })),
    );
    return 1;
  } catch (error) {
    if (error instanceof StaffLinkError) {
      const codes = { absent: 'AGENT_UNREACHABLE', 'not-staff': 'NOT_STAFF', unsafe: 'SOCKET_UNSAFE' };
      audit({ result: 'failed', code: codes[error.reason] });
      line(io.stderr, say.render(error.notes));
      return 1;
    }
    audit({ result: 'failed', code: error instanceof AgentError ? error.code : 'INTERNAL' });
    throw error;
  } finally {
    stop.abort();
  }
}
