import { read as fsRead } from 'node:fs';
import { promisify } from 'node:util';

/**
 * A guard around serialport's Linux/macOS binding for vanished devices.
 *
 * `@serialport/bindings-cpp` 13 retries a read that returned 0 bytes forever
 * (https://github.com/serialport/bindings-cpp/issues/162): when a USB-serial adapter is pulled out
 * or a pseudo-terminal's other side goes away while a read is in flight, the read returns 0 (end
 * of file), the binding spins at 100 % CPU and the port never reports a disconnect — exactly the
 * moment the agent needs to notice. The wrapped port's `read` treats two end-of-file reads in a
 * row (with a wait for "readable" between them) as a disconnect, which serialport turns into a
 * `close` event with `disconnected: true`. Other bindings (Windows, mocks) are left untouched.
 */

const readAsync = promisify(fsRead);

interface PollerLike {
  once(event: 'readable', callback: (error: Error | null) => void): unknown;
}

interface PortLike {
  isOpen: boolean;
  fd?: number | null;
  poller?: PollerLike;
  read(buffer: Buffer, offset: number, length: number): Promise<{ bytesRead: number; buffer: Buffer }>;
}

/** The part of serialport's binding interface this wrapper needs. */
export interface BindingLike {
  list(): Promise<unknown[]>;
  open(options: unknown): Promise<PortLike>;
}

function canceled(): Error {
  return Object.assign(new Error('Port is not open'), { canceled: true });
}

function waitReadable(port: PortLike): Promise<void> {
  return new Promise((resolve, reject) => {
    port.poller?.once('readable', (error) => (error ? reject(error) : resolve()));
  });
}

const RETRY_CODES = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);

/** Reads at least one byte; rejects `{disconnect: true}` at end of file, `{canceled: true}` when closed. */
export async function readOrDisconnect(
  port: PortLike,
  buffer: Buffer,
  offset: number,
  length: number,
  read: typeof readAsync = readAsync,
): Promise<{ bytesRead: number; buffer: Buffer }> {
  let endOfFile = 0;
  for (;;) {
    const fd = port.fd;
    if (!port.isOpen || typeof fd !== 'number') throw canceled();
    try {
      const { bytesRead } = await read(fd, buffer, offset, length, null);
      if (bytesRead > 0) return { bytesRead, buffer };
      endOfFile++;
      if (endOfFile >= 2) {
        throw Object.assign(new Error('end of file: the device vanished'), { disconnect: true, code: 'EOF' });
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (!RETRY_CODES.has(code)) {
        (error as { disconnect?: boolean }).disconnect = true;
        throw error;
      }
    }
    // The port may have been closed while the read was in flight: its native poller is then
    // destroyed, and polling it again crashes the process (a segfault in bindings-cpp's
    // Poller::poll), so never wait for "readable" on a closed port.
    if (!port.isOpen) throw canceled();
    await waitReadable(port);
  }
}

export function eofAwareBinding(base: BindingLike): BindingLike {
  return {
    list: () => base.list(),
    async open(options: unknown) {
      const port = await base.open(options);
      if (port.poller && 'fd' in port) {
        port.read = (buffer, offset, length) => readOrDisconnect(port, buffer, offset, length);
      }
      return port;
    },
  };
}
