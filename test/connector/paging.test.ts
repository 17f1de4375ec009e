import { describe, expect, it } from 'vitest';
import { createConnectorClient, type NormalizedItem } from '../../src/connector/index.js';
import { BASE_URL, loadFixture, recordingFetch, reply, SAMPLE, type SeenRequest } from './fake-platform.js';

const template = (
  loadFixture('fiscalMachineCommands-getAll.response.json').Commands as Record<string, unknown>[]
)[0];

/** `n` fiscal commands, newest first, the way the platform orders them. */
function fiscalItems(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({ ...template, Id: `cmd-${String(n - i).padStart(4, '0')}` }));
}

/**
 * A platform holding `items` (newest first) that follows the documented cursor rules: the
 * cursor is the id of the last item returned; the next page starts after it.
 */
function cursorPlatform(items: Record<string, unknown>[], options: { tooHeavyAbove?: number } = {}) {
  return recordingFetch((request: SeenRequest) => {
    const limitation = request.body.Limitation as { Count: number; Cursor?: string };
    if (options.tooHeavyAbove !== undefined && limitation.Count > options.tooHeavyAbove) {
      return reply(408, { Message: 'Request too heavy' });
    }
    const start = limitation.Cursor ? items.findIndex((i) => i.Id === limitation.Cursor) + 1 : 0;
    const page = items.slice(start, start + limitation.Count);
    return reply(200, { Commands: page, Cursor: page.at(-1)?.Id ?? null });
  });
}

async function pages<T>(iterable: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const page of iterable) out.push(page);
  return out;
}

const ids = (page: NormalizedItem[]) => page.map((i) => (i.ok ? i.command.id : i.id));
const filter = { CommandIds: ['cmd-0001'] };

describe('cursor pagination', () => {
  it('walks older pages by passing the cursor back until it is null, a short page included', async () => {
    const platform = cursorPlatform(fiscalItems(250));
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch });
    const result = await pages(api.fiscalCommands(filter, { pageSize: 100 }));
    // A short page is not the end (a platform may cap Count); the empty page's null cursor is.
    expect(result.map((p) => p.length)).toEqual([100, 100, 50, 0]);
    expect(platform.seen.map((s) => s.body.Limitation)).toEqual([
      { Count: 100 },
      { Count: 100, Cursor: 'cmd-0151' },
      { Count: 100, Cursor: 'cmd-0051' },
      { Count: 100, Cursor: 'cmd-0001' },
    ]);
    const all = result.flat();
    expect(ids(all).slice(0, 2)).toEqual(['cmd-0250', 'cmd-0249']);
    expect(new Set(ids(all)).size).toBe(250);
  });

  it('stops when the platform returns no cursor, even after a full page', async () => {
    const platform = recordingFetch(() => reply(200, { Commands: fiscalItems(3) }));
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch });
    expect((await pages(api.fiscalCommands(filter, { pageSize: 3 }))).length).toBe(1);
    expect(platform.seen).toHaveLength(1);
  });

  it('asks once more after an exactly full last page, and stops at the empty one', async () => {
    const platform = cursorPlatform(fiscalItems(200));
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch });
    expect((await pages(api.fiscalCommands(filter, { pageSize: 100 }))).map((p) => p.length)).toEqual([
      100, 100, 0,
    ]);
  });

  it('stops after maxPages', async () => {
    const platform = cursorPlatform(fiscalItems(500));
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch });
    expect((await pages(api.fiscalCommands(filter, { pageSize: 100, maxPages: 2 }))).length).toBe(2);
    expect(platform.seen).toHaveLength(2);
  });

  it('stops when the platform hands back a cursor it already gave', async () => {
    const platform = recordingFetch(() => reply(200, { Commands: fiscalItems(2), Cursor: 'stuck' }));
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch });
    expect(await pages(api.fiscalCommands(filter, { pageSize: 2 }))).toHaveLength(2);
    expect(platform.seen).toHaveLength(2);
  });

  it('lets the consumer stop early without fetching further pages', async () => {
    const platform = cursorPlatform(fiscalItems(500));
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch });
    for await (const page of api.fiscalCommands(filter, { pageSize: 100 })) {
      expect(page).toHaveLength(100);
      break;
    }
    expect(platform.seen).toHaveLength(1);
  });

  it('keeps a malformed item as an error without sinking its page', async () => {
    const items = fiscalItems(3);
    items[1] = { ...items[1], Bill: undefined };
    const platform = recordingFetch(() => reply(200, { Commands: items, Cursor: null }));
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch });
    const [page] = await pages(api.fiscalCommands(filter));
    expect(page?.map((i) => i.ok)).toEqual([true, false, true]);
    expect(page?.[1]).toMatchObject({ ok: false, id: 'cmd-0002', error: { code: 'COMMAND_INVALID' } });
  });

  it('pages orderItems and payments the same way', async () => {
    const order = (loadFixture('orderItems-getAll.response.json').OrderItems as Record<string, unknown>[])[0];
    const orderItems = Array.from({ length: 5 }, (_, i) => ({ ...order, Id: `oi-${i}` }));
    const platform = recordingFetch((request) => {
      const { Count, Cursor } = request.body.Limitation as { Count: number; Cursor?: string };
      const start = Cursor ? orderItems.findIndex((i) => i.Id === Cursor) + 1 : 0;
      const page = orderItems.slice(start, start + Count);
      return reply(200, { OrderItems: page, Cursor: page.at(-1)?.Id });
    });
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch });
    const result = await pages(api.orderItems({ BillIds: ['b1'] }, { pageSize: 2 }));
    expect(result.map((p) => p.map((i) => i.Id))).toEqual([['oi-0', 'oi-1'], ['oi-2', 'oi-3'], ['oi-4'], []]);
  });
});

describe('a request too heavy for the platform', () => {
  it('408 halves the page size, which then stays halved for the following pages', async () => {
    const platform = cursorPlatform(fiscalItems(120), { tooHeavyAbove: 50 });
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch, retries: 0 });
    const result = await pages(api.fiscalCommands(filter, { pageSize: 200 }));
    expect(platform.seen.map((s) => (s.body.Limitation as { Count: number }).Count)).toEqual([
      200, 100, 50, 50, 50, 50,
    ]);
    expect(result.map((p) => p.length)).toEqual([50, 50, 20, 0]);
  });

  it('413 on getAllByIds splits the batch instead', async () => {
    const platform = recordingFetch((request) => {
      const ids = request.body.CommandIds as string[];
      if (ids.length > 300) return reply(413, { Message: 'Too large' });
      return reply(200, { Commands: [] });
    });
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch, retries: 0 });
    await api.commandsByIds(Array.from({ length: 1000 }, (_, i) => `c${i}`));
    const sizes = platform.seen.map((s) => (s.body.CommandIds as string[]).length);
    expect(sizes).toEqual([1000, 500, 250, 250, 500, 250, 250]);
    const delivered = platform.seen.filter((s) => (s.body.CommandIds as string[]).length <= 300);
    expect(new Set(delivered.flatMap((s) => s.body.CommandIds as string[])).size).toBe(1000);
  });

  it('gives up with REQUEST_TOO_LARGE when even one item is too heavy', async () => {
    const platform = recordingFetch(() => reply(408, { Message: 'Request too heavy' }));
    const api = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: platform.fetch, retries: 0 });
    await expect(pages(api.fiscalCommands(filter, { pageSize: 4 }))).rejects.toMatchObject({
      code: 'REQUEST_TOO_LARGE',
      details: { status: 408, operation: 'fiscalMachineCommands/getAll' },
    });
    expect(platform.seen.map((s) => (s.body.Limitation as { Count: number }).Count)).toEqual([4, 2, 1]);
  });
});
