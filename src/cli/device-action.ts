import { loadConfig, localeOf, readTokenFile } from '../config.js';
import { AgentError } from '../errors.js';
import { createLogger } from '../log.js';
import { messageRenderer } from '../messages/render.js';
import { parseListen } from '../status/access.js';
import { auditLine } from '../status/local-actions.js';
import { createHttpClient, HttpFailure } from '../transport/http.js';
import { type CliIo, firstSignal, line } from './io.js';
import { cliMessages } from './messages.js';

/**
 * Device actions from the command line (`frontdesk-agent report x|z`, `frontdesk-agent void`):
 * the device is held by the running agent, so the command line asks it, through its status
 * address (`status.listen`), exactly as the page does — `POST /actions/<device>/<action>`
 * (src/status/device-actions.ts), with the status access token when one is configured, else with
 * the page's CSRF token read from `GET /actions` (loopback only). The agent validates, rate-limits
 * and audits it; the command line writes its own audit line on stderr too, like `cut-keys`.
 * Prints the Notes; exit 0 when the action succeeded, 1 otherwise.
 */

const ACTION_TIMEOUT_MS = 5 * 60_000;
const MAX_ANSWER = 256 * 1024;

export interface DeviceActionOptions {
  config: string;
  device: string;
  action: string;
  params: Record<string, string>;
}

function baseUrl(listen: string): string {
  const { host, port } = parseListen(listen);
  const local = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${local.includes(':') ? `[${local}]` : local}:${port}`;
}

interface Answer {
  notes?: string;
  error?: { code?: string; notes?: string };
  csrfToken?: string;
  devices?: Array<{ id: string; actions?: Array<{ name: string }> }>;
}

function parse(body: Buffer): Answer {
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    return value && typeof value === 'object' ? (value as Answer) : {};
  } catch {
    return {};
  }
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
  const base = baseUrl(config.status.listen);
  const say = messageRenderer(localeOf(config, io.env), config.timezone);
  const token = config.status.accessTokenFile
    ? readTokenFile(config.status.accessTokenFile, 'status access token', io.env.CREDENTIALS_DIRECTORY)
    : undefined;
  const log = createLogger({ level: 'info', secrets: token ? [token] : [], stream: io.stderr });
  const audit = (result: Record<string, string>) =>
    auditLine(
      log,
      'device-action',
      { who: 'command-line', ...(io.env.USER ? { from: io.env.USER } : {}) },
      { device: device.id, action: opts.action },
      result,
    );
  const client = createHttpClient();
  const stop = new AbortController();
  void firstSignal(io, () => undefined).then(() => stop.abort());
  try {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    else {
      const listing = await client.request({
        method: 'GET',
        url: `${base}/actions`,
        headers,
        timeoutMs: 5000,
        maxBytes: MAX_ANSWER,
        signal: stop.signal,
      });
      const csrf = parse(listing.body).csrfToken;
      if (listing.status !== 200 || !csrf)
        throw new AgentError('DEVICE_ERROR', `The agent at ${base} does not offer device actions`);
      headers['x-csrf-token'] = csrf;
      headers.origin = base;
    }
    const response = await client.request({
      method: 'POST',
      url: `${base}/actions/${encodeURIComponent(device.id)}/${encodeURIComponent(opts.action)}`,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ ...opts.params, confirm: 'yes' }),
      timeoutMs: ACTION_TIMEOUT_MS,
      maxBytes: MAX_ANSWER,
      signal: stop.signal,
    });
    const answer = parse(response.body);
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
    if (error instanceof HttpFailure && !error.sent) {
      audit({ result: 'failed', code: 'AGENT_UNREACHABLE' });
      line(io.stderr, say.render(cliMessages.agentUnreachable({ base })));
      return 1;
    }
    audit({ result: 'failed', code: error instanceof AgentError ? error.code : 'INTERNAL' });
    throw error;
  } finally {
    stop.abort();
    client.close();
  }
}
