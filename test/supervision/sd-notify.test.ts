import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/log.js';
import { createNotifier, formatNotifyMessage } from '../../src/supervision/sd-notify.js';
import { eventually } from '../helpers/eventually.js';
import { findExecutable, requireTool } from '../helpers/tools.js';
import { type FakeNotifySocket, fakeNotifySocket } from './notify-socket.js';

let socket: FakeNotifySocket | undefined;
afterEach(() => {
  socket?.close();
  socket = undefined;
});

describe('formatNotifyMessage', () => {
  it('joins assignments with newlines and keeps a value on one line', () => {
    expect(
      formatNotifyMessage([
        ['READY', '1'],
        ['STATUS', 'two\nlines\r\nhere'],
      ]),
    ).toBe('READY=1\nSTATUS=two lines here');
  });
});

describe('createNotifier', () => {
  it('is a no-op without a socket', async () => {
    const notifier = createNotifier(undefined);
    expect(notifier.enabled).toBe(false);
    notifier.ready('up');
    notifier.watchdog();
    await expect(notifier.send([['READY', '1']])).resolves.toBeUndefined();
    expect(createNotifier('  ').enabled).toBe(false);
  });

  it('sends READY, STATUS, WATCHDOG and STOPPING datagrams, in order, to a filesystem socket', async () => {
    socket = fakeNotifySocket();
    const notifier = createNotifier(socket.path);
    expect(notifier.enabled).toBe(true);
    notifier.ready('Listening on 127.0.0.1:8720');
    notifier.status('2 devices,\n1 queued');
    notifier.watchdog();
    notifier.stopping('Finishing 1 job');
    await eventually('4 datagrams', () => socket?.messages.length === 4);
    expect(socket.messages).toEqual([
      'READY=1\nSTATUS=Listening on 127.0.0.1:8720',
      'STATUS=2 devices, 1 queued',
      'WATCHDOG=1',
      'STOPPING=1\nSTATUS=Finishing 1 job',
    ]);
    notifier.close();
    notifier.watchdog();
    await notifier.send([['WATCHDOG', '1']]);
    expect(socket.messages).toHaveLength(4);
  });

  it('never throws when the socket is gone; logs the first failure as a warning', async () => {
    const log = createMemoryLogger();
    const notifier = createNotifier('/nonexistent/dir/notify', { log });
    notifier.watchdog();
    await notifier.send([['WATCHDOG', '1']]);
    await notifier.send([['WATCHDOG', '1']]);
    const warnings = log.lines.filter((l) => l.includes('warn sd_notify failed'));
    expect(warnings).toHaveLength(1);
    expect(log.lines.filter((l) => l.includes('sd_notify failed again'))).toHaveLength(2);
  });

  it('reaches an abstract socket (@name) through systemd-notify', async () => {
    if (!requireTool('socat', 'binds an abstract unix datagram socket as a fake NOTIFY_SOCKET')) return;
    if (!requireTool('systemd-notify', 'sends sd_notify datagrams to abstract sockets')) return;
    const name = `frontdesk-test-${randomBytes(6).toString('hex')}`;
    const receiver = spawn('socat', ['-u', `ABSTRACT-RECV:${name}`, 'STDOUT'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let received = '';
    receiver.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
    });
    try {
      // socat binds asynchronously: wait until the name exists in the kernel's table.
      await eventually(`socat to bind @${name}`, () =>
        readFileSync('/proc/net/unix', 'utf8').includes(`@${name}`),
      );
      const notifier = createNotifier(`@${name}`, {
        systemdNotify: findExecutable('systemd-notify') as string,
      });
      await notifier.send([
        ['READY', '1'],
        ['STATUS', 'abstract ok'],
      ]);
      await eventually('the datagram through socat', () => received.includes('STATUS=abstract ok'));
      expect(received).toContain('READY=1\nSTATUS=abstract ok');
    } finally {
      receiver.kill();
    }
  });
});

describe('createNotifier with a malformed address', () => {
  it('stays disabled and says why', () => {
    const log = createMemoryLogger();
    expect(createNotifier('relative/notify', { log }).enabled).toBe(false);
    expect(
      log.lines.some((l) => l.includes('NOTIFY_SOCKET is neither an absolute path nor an abstract name')),
    ).toBe(true);
  });
});
