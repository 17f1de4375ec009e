import { afterEach, describe, expect, it } from 'vitest';
import { english } from '../../src/messages/render.js';
import { transportMessages } from '../../src/transport/messages.js';
import { SerialTransport, serialOpenError } from '../../src/transport/serial.js';
import { readOrDisconnect } from '../../src/transport/serial-eof.js';
import { eventually } from '../helpers/eventually.js';
import { requireTool } from '../helpers/tools.js';
import { type SocatPair, socatPair } from './socat-pair.js';

const hasSocat = requireTool('socat', 'a pseudo-terminal pair is real serial I/O without hardware');

describe.runIf(hasSocat)('SerialTransport over a socat pseudo-terminal pair', () => {
  let pair: SocatPair;
  const open: SerialTransport[] = [];
  const serial = (path: string) => {
    const t = new SerialTransport({ type: 'serial', path, baudRate: 9600 });
    open.push(t);
    return t;
  };

  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
    await pair?.dispose();
  });

  it('carries bytes both ways; close() is quiet and idempotent', async () => {
    pair = socatPair();
    await pair.start();
    const device = serial(pair.b);
    const host = serial(pair.a);
    await device.open();
    await host.open();
    await host.open();
    const atDevice: Buffer[] = [];
    const atHost: Buffer[] = [];
    const closes: unknown[] = [];
    device.onData((c) => atDevice.push(c));
    host.onData((c) => atHost.push(c));
    host.onClose((e) => closes.push(e));
    await host.write(Buffer.from([0x02, 0xb3, 0x41, 0xb3, 0x03, 0x00]));
    await eventually('bytes at the device', () => Buffer.concat(atDevice).length === 6);
    expect(Buffer.concat(atDevice)).toEqual(Buffer.from([0x02, 0xb3, 0x41, 0xb3, 0x03, 0x00]));
    await device.write(Buffer.of(0x06));
    await eventually('ACK at the host', () => atHost.length > 0);
    await host.close();
    await host.close();
    expect(host.isOpen).toBe(false);
    expect(closes).toEqual([]);
  });

  it('notices the device vanishing while idle (reader attached) and re-opens when it is back', async () => {
    pair = socatPair();
    await pair.start();
    const device = serial(pair.b);
    const host = serial(pair.a);
    await device.open();
    await host.open();
    const closes: Array<Error & { disconnected?: boolean }> = [];
    const atHost: Buffer[] = [];
    host.onClose((e) => closes.push(e as Error));
    host.onData((c) => atHost.push(c));

    await pair.stop();
    await eventually('disconnect on the host side', () => closes.length === 1);
    expect(closes[0]?.disconnected).toBe(true);
    expect(host.isOpen).toBe(false);
    await expect(host.write(Buffer.of(1))).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
    await expect(host.open()).rejects.toMatchObject({
      code: 'DEVICE_UNAVAILABLE',
      notes: transportMessages.encoderUnplugged(),
    });

    await pair.start();
    await device.open();
    await host.open();
    await device.write(Buffer.from('back'));
    await eventually(
      'data after replug on the old listener',
      () => Buffer.concat(atHost).toString() === 'back',
    );
  });

  it('notices the device vanishing right after data arrived (the read in flight hits end of file)', async () => {
    pair = socatPair();
    await pair.start();
    const device = serial(pair.b);
    const host = serial(pair.a);
    await device.open();
    await host.open();
    const closes: unknown[] = [];
    host.onClose((e) => closes.push(e));
    const got = new Promise((resolve) => host.onData(resolve));
    await device.write(Buffer.of(0x06));
    await got;
    await pair.stop();
    await eventually('disconnect despite the 0-byte read', () => closes.length === 1);
  });
});

describe('serial open errors', () => {
  it('maps a missing path, no permission and a locked port to what staff can do', async () => {
    await expect(
      new SerialTransport({
        type: 'serial',
        path: '/dev/serial/by-id/no-such-encoder',
        baudRate: 9600,
      }).open(),
    ).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE', retryable: true });
    expect(
      serialOpenError('serial /dev/x', new Error('Error: Permission denied, cannot open /dev/x')),
    ).toMatchObject({
      code: 'DEVICE_UNAVAILABLE',
      retryable: false,
      notes: transportMessages.serialDenied(),
    });
    expect(
      english(
        serialOpenError('serial /dev/x', new Error('Error Resource temporarily unavailable Cannot lock port'))
          .notes,
      ),
    ).toMatch(/Another program is using/);
  });
});

describe('readOrDisconnect (guard for bindings-cpp#162)', () => {
  const readable = {
    once: (_e: 'readable', cb: (error: Error | null) => void) => setImmediate(() => cb(null)),
  };

  it('turns end-of-file twice in a row into a disconnect instead of spinning', async () => {
    let calls = 0;
    const port = {
      isOpen: true,
      fd: 9,
      poller: readable,
      read: async () => ({ bytesRead: 0, buffer: Buffer.alloc(0) }),
    };
    const read = (async () => {
      calls++;
      return { bytesRead: 0, buffer: Buffer.alloc(1) };
    }) as never;
    await expect(readOrDisconnect(port, Buffer.alloc(8), 0, 8, read)).rejects.toMatchObject({
      disconnect: true,
    });
    expect(calls).toBe(2);
  });

  it('never polls the port again once it was closed during a read that found end of file', async () => {
    let polled = 0;
    const port = {
      isOpen: true,
      fd: 9,
      // A destroyed native poller crashes the process when polled: count instead (and answer as
      // a stopped poller does, so the old behaviour fails here rather than hangs).
      poller: {
        once: (_e: 'readable', cb: (error: Error | null) => void) => {
          polled++;
          cb(Object.assign(new Error('Canceled'), { canceled: true }));
        },
      },
      read: async () => ({ bytesRead: 0, buffer: Buffer.alloc(0) }),
    };
    const read = (async () => {
      port.isOpen = false; // closed by the transport while this read was in flight
      return { bytesRead: 0, buffer: Buffer.alloc(1) };
    }) as never;
    await expect(readOrDisconnect(port, Buffer.alloc(8), 0, 8, read)).rejects.toMatchObject({
      canceled: true,
    });
    expect(polled).toBe(0);
  });

  it('waits for readable on EAGAIN, returns data, and reports cancel when closed', async () => {
    const results: Array<() => { bytesRead: number; buffer: Buffer }> = [
      () => {
        throw Object.assign(new Error('again'), { code: 'EAGAIN' });
      },
      () => ({ bytesRead: 3, buffer: Buffer.alloc(8) }),
    ];
    const read = (async () => (results.shift() as () => { bytesRead: number; buffer: Buffer })()) as never;
    const port = {
      isOpen: true,
      fd: 9,
      poller: readable,
      read: async () => ({ bytesRead: 0, buffer: Buffer.alloc(0) }),
    };
    await expect(readOrDisconnect(port, Buffer.alloc(8), 0, 8, read)).resolves.toMatchObject({
      bytesRead: 3,
    });
    await expect(
      readOrDisconnect({ ...port, isOpen: false }, Buffer.alloc(8), 0, 8, read),
    ).rejects.toMatchObject({
      canceled: true,
    });
    const failing = (async () => {
      throw Object.assign(new Error('gone'), { code: 'EIO' });
    }) as never;
    await expect(readOrDisconnect(port, Buffer.alloc(8), 0, 8, failing)).rejects.toMatchObject({
      disconnect: true,
    });
  });
});
