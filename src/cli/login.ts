import { greetingLocaleOf, loadConfig } from '../config.js';
import { messageRenderer } from '../messages/render.js';
import { staffMessages } from '../status/callers/index.js';
import { type CliIo, line } from './io.js';
import { openLogin } from './login-opener.js';
import { cliMessages } from './messages.js';
import { answerJson, StaffLinkError, staffRequest, staffSocketOf } from './staff-link.js';

/**
 * `login`: a one-time address that logs this PC's browser in to the status page, for the Unix
 * user running it. The agent mints it on the staff socket (src/status/callers/login.ts), where the kernel
 * told it who asks, so only root, the service and the staff group get one, and the page's audit
 * lines name that user. The address is printed to this terminal only; with `--open` it goes to
 * the browser through a page only this user can read (login-opener.ts), never on a command line,
 * where other accounts read it in the process list. It works once, for 5 minutes, and only in a
 * browser of this user's. Exit 0 with the address on stdout (or the browser opening), 1 when the
 * agent does not give one.
 */
export async function loginCommand(opts: { config: string; open?: boolean }, io: CliIo): Promise<number> {
  const config = loadConfig(opts.config);
  const say = messageRenderer(greetingLocaleOf(config, io.env), config.timezone);
  try {
    const answer = await staffRequest(staffSocketOf(config), config.status.staffGroup, {
      method: 'POST',
      path: '/login-links',
      timeoutMs: 10_000,
      maxBytes: 16 * 1024,
    });
    const body = answerJson<{ url: string; expiresInSeconds: number; error: { notes?: string } }>(answer);
    if (answer.status !== 200 || typeof body.url !== 'string') {
      line(io.stderr, body.error?.notes ?? say.render(cliMessages.actionRefused({ status: answer.status })));
      return 1;
    }
    const seconds = body.expiresInSeconds ?? 300;
    const minutes = Math.max(1, Math.round(seconds / 60));
    if (opts.open) {
      // Never on a command line: the browser gets a page of this user's that leads to it.
      openLogin(body.url, seconds, io.env, (error) =>
        line(io.stderr, say.render(staffMessages.loginOpenFailed({ error: error.message }))),
      );
      line(io.stderr, say.render(staffMessages.loginOpening({ minutes })));
      return 0;
    }
    line(io.stderr, say.render(staffMessages.loginAddress({ minutes })));
    line(io.stdout, body.url);
    return 0;
  } catch (error) {
    if (error instanceof StaffLinkError) {
      line(io.stderr, say.render(error.notes));
      return 1;
    }
    throw error;
  }
}
