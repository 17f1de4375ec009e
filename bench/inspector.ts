import WebSocket from 'ws';

/**
 * A minimal Chrome DevTools Protocol client for a child started with `--inspect=127.0.0.1:0`:
 * force a full garbage collection and read the V8 heap, so a memory reading can tell live data
 * from garbage not yet collected. Rejects when the child's inspector cannot be reached.
 */
export interface HeapReading {
  usedBytes: number;
  totalBytes: number;
}

/** The `ws://…` address a child prints on stderr as "Debugger listening on ws://…". */
export function inspectorUrl(output: string): string | undefined {
  return /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
}

export async function collectGarbage(url: string, timeoutMs = 10_000): Promise<HeapReading> {
  const socket = new WebSocket(url);
  const pending = new Map<number, (result: unknown) => void>();
  let id = 0;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const call = (method: string) =>
    new Promise<unknown>((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      socket.send(JSON.stringify({ id: n, method }));
    });
  const work = (async () => {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await call('HeapProfiler.enable');
    // Twice: the first pass may only make weakly held objects collectable.
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const usage = (await call('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number };
    return { usedBytes: usage.usedSize, totalBytes: usage.totalSize };
  })();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`inspector at ${url} did not answer`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    socket.close();
  }
}
