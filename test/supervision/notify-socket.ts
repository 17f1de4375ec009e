import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface BoundSocket {
  on(event: 'message', listener: (buf: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  bind(path: string): void;
  close(): void;
}
const unix = createRequire(import.meta.url)('unix-dgram') as {
  createSocket(type: 'unix_dgram'): BoundSocket;
};

/** A fake `$NOTIFY_SOCKET`: a unix datagram socket bound in a temp dir, recording every message. */
export interface FakeNotifySocket {
  path: string;
  messages: string[];
  close(): void;
}

export function fakeNotifySocket(): FakeNotifySocket {
  const dir = mkdtempSync(join(tmpdir(), 'fd-notify-'));
  const path = join(dir, 'notify');
  const messages: string[] = [];
  const socket = unix.createSocket('unix_dgram');
  socket.on('error', () => {});
  socket.on('message', (buf) => {
    messages.push(buf.toString('utf8'));
  });
  socket.bind(path);
  return {
    path,
    messages,
    close() {
      socket.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
