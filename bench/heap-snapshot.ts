import { createWriteStream } from 'node:fs';
import WebSocket from 'ws';

/**
 * Writes a V8 heap snapshot of a child started with `--inspect=127.0.0.1:0` to `file` (the
 * `.heapsnapshot` format Chrome DevTools opens) over the DevTools protocol. The snapshot forces a
 * full GC first, so it holds live objects only. `summarizeSnapshot` reads one back as counts and
 * self sizes per constructor, and `diffSummaries` compares two: what a workload left behind.
 */
export async function writeHeapSnapshot(url: string, file: string, timeoutMs = 120_000): Promise<void> {
  const socket = new WebSocket(url, { maxPayload: 1 << 30 });
  const out = createWriteStream(file);
  let id = 0;
  const pending = new Map<number, () => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; method?: string; params?: { chunk?: string } };
    if (message.method === 'HeapProfiler.addHeapSnapshotChunk' && message.params?.chunk) {
      out.write(message.params.chunk);
    } else if (message.id !== undefined) pending.get(message.id)?.();
  });
  const call = (method: string, params: object = {}) =>
    new Promise<void>((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      socket.send(JSON.stringify({ id: n, method, params }));
    });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      (async () => {
        await new Promise<void>((resolve, reject) => {
          socket.once('open', () => resolve());
          socket.once('error', reject);
        });
        await call('HeapProfiler.enable');
        await call('HeapProfiler.collectGarbage');
        await call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      })(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`inspector at ${url}: no snapshot in time`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    socket.close();
    await new Promise<void>((resolve) => out.end(resolve));
  }
}

/** Per constructor (node type + name): how many objects and their self size in bytes. */
export type SnapshotSummary = Map<string, { count: number; bytes: number }>;

interface RawSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Groups the nodes of a parsed `.heapsnapshot` by type and name. */
export function summarizeSnapshot(json: string): SnapshotSummary {
  const raw = JSON.parse(json) as RawSnapshot;
  const fields = raw.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = raw.snapshot.meta.node_types[0];
  const summary: SnapshotSummary = new Map();
  for (let i = 0; i < raw.nodes.length; i += width) {
    const type = types[raw.nodes[i + typeAt] ?? 0] ?? '?';
    let name = raw.strings[raw.nodes[i + nameAt] ?? 0] ?? '?';
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') name = '(string)';
    else if (type === 'code' || type === 'hidden') name = name.slice(0, 40);
    const key = `${type}:${name.slice(0, 80)}`;
    const row = summary.get(key) ?? { count: 0, bytes: 0 };
    row.count += 1;
    row.bytes += raw.nodes[i + sizeAt] ?? 0;
    summary.set(key, row);
  }
  return summary;
}

/** Rows that grew from `before` to `after`, largest byte growth first. */
export function diffSummaries(
  before: SnapshotSummary,
  after: SnapshotSummary,
  limit = 40,
): { key: string; count: number; bytes: number }[] {
  const rows: { key: string; count: number; bytes: number }[] = [];
  for (const [key, a] of after) {
    const b = before.get(key) ?? { count: 0, bytes: 0 };
    if (a.bytes > b.bytes || a.count > b.count)
      rows.push({ key, count: a.count - b.count, bytes: a.bytes - b.bytes });
  }
  return rows.sort((x, y) => y.bytes - x.bytes).slice(0, limit);
}
