import { describe, expect, it } from 'vitest';
import { createMemoryPair, MemoryHub } from '../../src/transport/testing/memory.js';
import type { Transport } from '../../src/transport/types.js';
import { letPendingWorkRun } from '../helpers/pending-work.js';

function collect(t: Transport): { data: Buffer[]; closes: Array<Error | undefined> } {
  const out = { data: [] as Buffer[], closes: [] as Array<Error | undefined> };
  t.onData((c) => out.data.push(c));
  t.onClose((e) => out.closes.push(e));
  return out;
}

const tick = letPendingWorkRun;

describe('memory pair', () => {
  it('delivers bytes in order, asynchronously, to the other end only', async () => {
    const { a, b } = createMemoryPair('t');
    await a.open();
    await b.open();
    const atA = collect(a);
    const atB = collect(b);
    const first = a.write(Buffer.from('he'));
    expect(atB.data).toEqual([]); // never inside write(): listeners may write back safely
    await first;
    await a.write(Uint8Array.from([0x6c, 0x6c, 0x6f]));
    await tick();
    expect(Buffer.concat(atB.data).toString()).toBe('hello');
    expect(atA.data).toEqual([]);
  });

  it('closing one end is a hang-up for the other; the closer hears nothing', async () => {
    const { a, b } = createMemoryPair('t');
    await a.open();
    await b.open();
    const atA = collect(a);
    const atB = collect(b);
    await a.close();
    await a.close();
    await tick();
    expect(atA.closes).toEqual([]);
    expect(atB.closes).toHaveLength(1);
    expect(b.isOpen).toBe(false);
    await expect(b.write(Buffer.of(1))).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
    await expect(a.open()).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
  });

  it('sever() is an unplug: both ends see a disconnected error', async () => {
    const pair = createMemoryPair('t');
    await pair.a.open();
    await pair.b.open();
    const atA = collect(pair.a);
    const atB = collect(pair.b);
    pair.sever();
    await tick();
    expect(atA.closes[0]).toMatchObject({ disconnected: true });
    expect(atB.closes[0]).toMatchObject({ disconnected: true });
  });

  it('rejects writes before open and honours an aborted signal', async () => {
    const { a } = createMemoryPair('t');
    await expect(a.write(Buffer.of(1))).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
    await expect(a.open(AbortSignal.abort())).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

describe('memory hub', () => {
  it('connects a named transport to whoever listens, one fresh link per open', async () => {
    const hub = new MemoryHub();
    const devices: Transport[] = [];
    hub.listen('enc', (d) => {
      devices.push(d);
      d.onData((chunk) => void d.write(Buffer.concat([Buffer.from('echo:'), chunk])));
    });
    const host = hub.connect('enc');
    const seen = collect(host);
    await host.open();
    await host.open();
    expect(devices).toHaveLength(1);
    await host.write(Buffer.from('x'));
    await tick();
    expect(Buffer.concat(seen.data).toString()).toBe('echo:x');
    await host.close();
    await host.open();
    expect(devices).toHaveLength(2);
    await host.write(Buffer.from('y'));
    await tick();
    expect(Buffer.concat(seen.data).toString()).toBe('echo:xecho:y');
    expect(seen.closes).toEqual([]);
  });

  it('unplug severs open links and refuses opens until someone listens again', async () => {
    const hub = new MemoryHub();
    const stop = hub.listen('enc', () => undefined);
    const host = hub.connect('enc');
    const seen = collect(host);
    await host.open();
    stop();
    await tick();
    expect(seen.closes).toHaveLength(1);
    expect(host.isOpen).toBe(false);
    expect(hub.has('enc')).toBe(false);
    await expect(host.open()).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
    hub.listen('enc', () => undefined);
    await host.open();
    expect(host.isOpen).toBe(true);
  });
});
