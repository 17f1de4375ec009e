import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { RefusedItems } from '../../src/connector/api.js';
import { createConnectorClient, MAX_ACTIVE_COMMANDS } from '../../src/connector/client.js';
import type { NormalizedItem } from '../../src/connector/model.js';

/**
 * Issue 40, finding M4: a 1.2 MB platform listing of 400,000 empty items exhausted the agent's
 * heap — about 540 bytes of heap per byte of answer, an `AgentError` with its stack per malformed
 * item (src/connector/model.ts). Now a page with more items than its `Limitation.Count` asked
 * (a `getAllByIds` answer with more items than ids asked, a `getAllActive` answer beyond
 * `MAX_ACTIVE_COMMANDS`) is refused before any item is read, a malformed item costs a record, not
 * an `Error`, and refused items are counted for `/metrics`.
 */

const EMPTY_ITEMS = 400_000;
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A platform on 127.0.0.1 that answers every operation with `body(operation)`. */
async function platform(body: (operation: string) => string): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body((req.url ?? '').replace('/api/connector/v1/', '')));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function client(baseUrl: string, refused: RefusedItems[]) {
  return createConnectorClient({
    baseUrl,
    clientToken: 'client-0123456789',
    accessToken: 'access-0123456789',
    client: 'test 1.0',
    clock: new ManualClock(),
    retries: 0,
    onRefusedItems: (r) => refused.push(r),
  });
}

const emptyItems = (count: number) => `{"Commands":[${Array(count).fill('{}').join(',')}],"Cursor":null}`;

describe('a platform listing of 400,000 empty items (1.2 MB)', () => {
  it('is refused unread, as a fiscal page of 100 asked, an active listing and a read by ids', async () => {
    const answer = emptyItems(EMPTY_ITEMS);
    expect(answer.length).toBeGreaterThan(1_190_000);
    const refused: RefusedItems[] = [];
    const connector = client(await platform(() => answer), refused);
    const pages = connector.fiscalCommands({ CommandIds: ['a'] }, { pageSize: 100 })[Symbol.asyncIterator]();
    await expect(pages.next()).rejects.toMatchObject({
      code: 'RESPONSE_INVALID',
      details: { items: EMPTY_ITEMS, max: 100 },
    });
    await expect(connector.activeCommands()).rejects.toMatchObject({
      code: 'RESPONSE_INVALID',
      details: { items: EMPTY_ITEMS, max: MAX_ACTIVE_COMMANDS },
    });
    await expect(connector.commandsByIds(['a', 'b', 'c'])).rejects.toMatchObject({
      code: 'RESPONSE_INVALID',
      details: { items: EMPTY_ITEMS, max: 3 },
    });
    expect(refused).toEqual([
      { operation: 'fiscalMachineCommands/getAll', reason: 'over-bound', items: EMPTY_ITEMS },
      { operation: 'commands/getAllActive', reason: 'over-bound', items: EMPTY_ITEMS },
      { operation: 'commands/getAllByIds', reason: 'over-bound', items: EMPTY_ITEMS },
    ]);
  });

  it('a page within its Count: each malformed item is a record, not an Error, and counted', async () => {
    const refused: RefusedItems[] = [];
    const connector = client(await platform(() => emptyItems(100)), refused);
    const items: NormalizedItem[] = [];
    for await (const page of connector.fiscalCommands({ CommandIds: ['a'] }, { pageSize: 100 }))
      items.push(...page);
    expect(items).toHaveLength(100);
    for (const item of items) {
      expect(item.ok).toBe(false);
      if (!item.ok) {
        expect(item.error).not.toBeInstanceOf(Error);
        expect(item.error).toMatchObject({ code: 'COMMAND_INVALID', retryable: false });
      }
    }
    expect(refused).toEqual([{ operation: 'fiscalMachineCommands/getAll', reason: 'malformed', items: 100 }]);
  });
});
