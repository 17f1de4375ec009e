import { systemClock } from '../clock.js';
import { stateWord } from '../commands/index.js';
import { type Config, loadConfig, localeOf, resolveSecrets } from '../config.js';
import { addKeyCutterRequest } from '../connector/enterprise.js';
import { ConnectorSocket } from '../connector/websocket.js';
import { AgentError } from '../errors.js';
import { createLogger } from '../log.js';
import { readMessage } from '../messages/message.js';
import { type MessageRenderer, messageRenderer } from '../messages/render.js';
import { pollUntil } from '../periodic.js';
import { auditLine } from '../status/actions/index.js';
import type { CommandSummary } from '../status-model.js';
import { type CliIo, firstSignal, line } from './io.js';
import { cliMessages } from './messages.js';
import { oneShotClient } from './platform.js';
import { StaffLinkError, staffRequest, staffSocketOf } from './staff-link.js';

const TERMINAL = new Set(['Processed', 'Cancelled', 'Error']);
const FOLLOW_LIMIT_MS = 5 * 60_000;
/** The agent's /status.json (device and recent-command summaries) stays far below this. */
const STATUS_MAX_BYTES = 4 * 1024 * 1024;

/** The `cut-keys` command line's options, as commander parses them. */
export interface CutKeysOptions {
  config: string;
  device: string;
  reservation: string;
  count: number;
  enterprise?: string;
  follow: boolean;
}

/**
 * `cut-keys`: `commands/addKeyCutter`, prints the new command id, then follows the command to its
 * end — through the local agent's `/status.json` on the staff socket (which knows the Notes), or,
 * when no agent answers there, through the platform's WebSocket events. Exit 0 when the keys
 * were cut.
 */
export async function cutKeysCommand(opts: CutKeysOptions, io: CliIo): Promise<number> {
  const config = loadConfig(opts.config);
  if (config.simulator?.enabled) {
    throw new AgentError(
      'CONFIG_INVALID',
      'cut-keys needs a real platform; with the simulator use the status page form',
    );
  }
  const { maxKeyCount } = config.status.actions;
  if (opts.count > maxKeyCount) {
    throw new AgentError(
      'COMMAND_INVALID',
      `--count ${opts.count} is more than status.actions.maxKeyCount (${maxKeyCount}) allows`,
    );
  }
  const say = messageRenderer(localeOf(config, io.env), config.timezone);
  const secrets = resolveSecrets(config, io.env);
  const log = createLogger({
    level: 'warn',
    secrets: [secrets.clientToken, secrets.accessToken],
    stream: io.stderr,
  });
  const request = addKeyCutterRequest(
    {
      deviceId: opts.device,
      reservationId: opts.reservation,
      keyCount: opts.count,
      ...(opts.enterprise !== undefined ? { enterpriseId: opts.enterprise } : {}),
    },
    config.platform.enterpriseIds,
  );
  const client = oneShotClient(config, secrets, log);
  // The same audit line as the page's actions (src/status/actions/local-actions.ts), on stderr.
  const audit = (result: Record<string, string>) =>
    auditLine(
      createLogger({ level: 'info', secrets: [secrets.clientToken, secrets.accessToken], stream: io.stderr }),
      'cut-keys',
      { who: 'command-line', ...(io.env.USER ? { from: io.env.USER } : {}) },
      { device: opts.device, reservation: opts.reservation, count: opts.count },
      result,
    );
  let id: string;
  try {
    id = await client.addKeyCutter(request);
  } catch (error) {
    audit({ result: 'failed', code: error instanceof AgentError ? error.code : 'INTERNAL' });
    throw error;
  }
  audit({ result: 'done', commandId: id });
  line(io.stdout, id);
  if (!opts.follow) return 0;

  const stop = new AbortController();
  void firstSignal(io, () => undefined).then(() => stop.abort());
  const timer = setTimeout(() => stop.abort(), FOLLOW_LIMIT_MS);
  try {
    const viaAgent = await followViaAgent(config, id, io, say, stop.signal);
    if (viaAgent !== undefined) return viaAgent;
    if (config.platform.websocketUrl) {
      line(io.stderr, say.render(cliMessages.followingSocket()));
      return await followViaSocket(config, secrets, id, io, say, stop.signal);
    }
    line(io.stderr, say.render(cliMessages.cannotFollow()));
    return 0;
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}

/** How often the command line reads the agent's `/status.json` while it follows a command. */
const FOLLOW_EVERY_MS = 500;

/** Resolves to an exit code, or undefined when no agent answers on the staff socket. */
async function followViaAgent(
  config: Config,
  id: string,
  io: CliIo,
  say: MessageRenderer,
  signal: AbortSignal,
): Promise<number | undefined> {
  // Through the staff socket (staff-link.ts): the kernel says who asks, no token is sent.
  const socket = staffSocketOf(config);
  let answered = false;
  let printed = '';
  /** One read: the exit code once the command ended, `absent` when no agent answers, else undefined. */
  const readOnce = async (): Promise<number | 'absent' | undefined> => {
    try {
      const response = await staffRequest(socket, config.status.staffGroup, {
        method: 'GET',
        path: '/status.json',
        signal,
        timeoutMs: 2000,
        maxBytes: STATUS_MAX_BYTES,
      });
      if (response.status < 200 || response.status >= 300) return answered ? undefined : 'absent';
      answered = true;
      const snapshot = JSON.parse(response.body.toString('utf8')) as { recent?: CommandSummary[] };
      const command = snapshot.recent?.find((c) => c.id === id);
      if (!command) return undefined;
      const state = say.render(stateWord(command.state));
      const text =
        command.progress !== undefined && command.state === 'Processing'
          ? say.render(cliMessages.stateProgress({ state, percent: Math.round(command.progress * 100) }))
          : state;
      if (text !== printed) line(io.stdout, text);
      printed = text;
      if (!TERMINAL.has(command.state)) return undefined;
      if (command.notes) line(io.stdout, say.render(readMessage(command.notes)));
      return command.state === 'Processed' ? 0 : 1;
    } catch (error) {
      if (answered) return undefined;
      if (error instanceof StaffLinkError && error.reason !== 'absent')
        line(io.stderr, say.render(error.notes));
      return 'absent';
    }
  };
  try {
    const outcome = await pollUntil(readOnce, { clock: systemClock, signal, intervalMs: FOLLOW_EVERY_MS });
    return outcome === 'absent' ? undefined : outcome;
  } catch {
    line(io.stderr, say.render(cliMessages.stoppedFollowing()));
    return 1;
  }
}

async function followViaSocket(
  config: Config,
  secrets: { clientToken: string; accessToken: string },
  id: string,
  io: CliIo,
  say: MessageRenderer,
  signal: AbortSignal,
): Promise<number> {
  const socket = new ConnectorSocket({
    url: config.platform.websocketUrl as string,
    clientToken: secrets.clientToken,
    accessToken: secrets.accessToken,
  });
  try {
    return await new Promise<number>((resolve) => {
      signal.addEventListener('abort', () => resolve(1), { once: true });
      socket.onCommand((event) => {
        if (event.id !== id || !event.state) return;
        line(io.stdout, say.render(stateWord(event.state)));
        if (TERMINAL.has(event.state)) resolve(event.state === 'Processed' ? 0 : 1);
      });
      socket.start();
    });
  } finally {
    await socket.stop();
  }
}
