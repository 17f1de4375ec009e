import { describe, expect, it } from 'vitest';
import {
  COMMAND_STATES,
  type ConnectorClientOptions,
  createConnectorClient,
  listedTypeFits,
  type NormalizedItem,
  normalizeCommand,
  normalizeFiscalMachineCommand,
} from '../../src/connector/index.js';
import { BASE_URL, loadFixture, recordingFetch, reply, SAMPLE, type SeenRequest } from './fake-platform.js';

/**
 * The connector client against the platform's interface document
 * (`../shared/seed/platform-interfaces.md`) and the public docs' samples
 * (`test/fixtures/connector-docs/`): what it sends and what it accepts. Every test names the
 * document's section it checks. The platform here is a recording double that answers with the
 * samples, or with items built from them; never the project's simulator.
 */

type Json = Record<string, unknown>;

const SAMPLE_FISCAL = loadFixture('fiscalMachineCommands-getAll.response.json');
const [DATA_ITEM, PAYLOAD_ITEM] = (SAMPLE_FISCAL.Commands as Json[]).map((item) => item as Json) as [
  Json,
  Json,
];
const FISCAL_REQUEST = loadFixture('fiscalMachineCommands-getAll.request.json');
const TOKENS = { ClientToken: SAMPLE.clientToken, AccessToken: SAMPLE.accessToken, Client: SAMPLE.client };

function client(respond: (request: SeenRequest) => Response, extra: Partial<ConnectorClientOptions> = {}) {
  const recorder = recordingFetch(respond);
  const api = createConnectorClient({
    baseUrl: BASE_URL,
    ...SAMPLE,
    fetch: recorder.fetch,
    retries: 0,
    ...extra,
  });
  return { api, seen: recorder.seen };
}

const emptyFiscal = () => reply(200, { Commands: [], Cursor: null });

async function all<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const page of pages) out.push(page);
  return out;
}

const copy = <T>(value: T): T => structuredClone(value);

function withCommandData(data: Json | undefined): Json {
  const item = copy(DATA_ITEM) as Json;
  if (data === undefined) delete item.CommandData;
  else item.CommandData = data;
  return item;
}

const ITALIAN_DATA = (DATA_ITEM.CommandData as Json).ItalianFiscalMachineData as Json;
const ITALIAN_PAYLOAD = (PAYLOAD_ITEM.CommandData as Json).ItalianFiscalMachinePayload as Json;

describe('Part B › Endpoints (every operation): what the client sends', () => {
  it('Part B › Endpoints: every body carries ClientToken, AccessToken and Client, POSTed as JSON to {platform_address}/api/connector/v1/<group>/<operation>', async () => {
    // The HTTP method is "not shown" in the document; the public docs say POST with
    // Content-Type application/json (MewsSystems/open-api-docs:connector-api/guidelines/requests.md).
    const { api, seen } = client((r) =>
      r.operation === 'fiscalMachineCommands/getAll'
        ? emptyFiscal()
        : r.operation === 'commands/addKeyCutter'
          ? reply(200, { CommandId: 'c' })
          : reply(200, r.operation === 'commands/update' ? {} : { Commands: [] }),
    );
    await all(api.fiscalCommands({ CommandIds: ['a'] }));
    await api.commandsByIds(['a']);
    await api.updateCommand({ CommandId: 'a', State: 'Received' });
    await api.addKeyCutter({ KeyCutterId: 'k', ReservationId: 'r', KeyCount: 1 });
    expect(seen.map((s) => s.url)).toEqual([
      `${BASE_URL}/api/connector/v1/fiscalMachineCommands/getAll`,
      `${BASE_URL}/api/connector/v1/commands/getAllByIds`,
      `${BASE_URL}/api/connector/v1/commands/update`,
      `${BASE_URL}/api/connector/v1/commands/addKeyCutter`,
    ]);
    for (const s of seen) {
      expect(s.method).toBe('POST');
      expect(s.contentType).toBe('application/json');
      expect(s.body).toMatchObject(TOKENS);
    }
  });
});

describe('Part B › Endpoints › fiscalMachineCommands/getAll parameter sets: what the client sends', () => {
  it('Part B › Endpoints › fiscalMachineCommands/getAll parameter sets (1, by identifiers): CommandIds, EnterpriseIds null when none are configured, Limitation', async () => {
    const { api, seen } = client(emptyFiscal);
    await all(api.fiscalCommands({ CommandIds: ['a', 'b'] }));
    expect(seen[0]?.body).toEqual({
      ...TOKENS,
      CommandIds: ['a', 'b'],
      EnterpriseIds: null,
      Limitation: { Count: 100 },
    });
  });

  it('Part B › Endpoints › fiscalMachineCommands/getAll parameter sets (2, by device and state): DeviceIds, States, UpdatedUtc, EnterpriseIds null, Limitation', async () => {
    const { api, seen } = client(emptyFiscal);
    const window = { StartUtc: '2025-01-10T00:00:00Z', EndUtc: '2025-01-17T00:00:00Z' };
    await all(api.fiscalCommands({ DeviceIds: ['d'], States: ['Pending'], UpdatedUtc: window }));
    expect(seen[0]?.body).toEqual({
      ...TOKENS,
      DeviceIds: ['d'],
      States: ['Pending'],
      UpdatedUtc: window,
      EnterpriseIds: null,
      Limitation: { Count: 100 },
    });
  });

  it('Part B › Endpoints › fiscalMachineCommands/getAll parameter sets: EnterpriseIds is the configured array, never left out; the sample request is reproduced key for key', async () => {
    const enterprises = FISCAL_REQUEST.EnterpriseIds as string[];
    const { api, seen } = client(emptyFiscal, { enterpriseIds: enterprises });
    await all(
      api.fiscalCommands({
        DeviceIds: FISCAL_REQUEST.DeviceIds as string[],
        States: ['Processed', 'Processing'],
        UpdatedUtc: FISCAL_REQUEST.UpdatedUtc as { StartUtc: string; EndUtc: string },
      }),
    );
    await all(api.fiscalCommands({ CommandIds: ['a'], EnterpriseIds: null }));
    expect(seen[0]?.body).toEqual(FISCAL_REQUEST);
    expect(seen[1]?.body).toMatchObject({ EnterpriseIds: null });
    for (const s of seen) expect(Object.keys(s.body)).toContain('EnterpriseIds');
  });

  it('Part B › Endpoints › fiscalMachineCommands/getAll parameter sets: the two sets are never mixed, and a set missing a required field is never sent', async () => {
    const { api, seen } = client(emptyFiscal);
    const mixed = { CommandIds: ['a'], DeviceIds: ['d'], States: ['Pending'] } as never;
    await expect(all(api.fiscalCommands(mixed))).rejects.toMatchObject({ code: 'REQUEST_INVALID' });
    const noStates = {
      DeviceIds: ['d'],
      UpdatedUtc: { StartUtc: '2025-01-10T00:00:00Z', EndUtc: '2025-01-11T00:00:00Z' },
    };
    await expect(all(api.fiscalCommands(noStates as never))).rejects.toMatchObject({
      code: 'REQUEST_INVALID',
    });
    expect(seen).toHaveLength(0);
  });

  it('Part B › Limits: DeviceIds at most 100, CommandIds and EnterpriseIds at most 1000, UpdatedUtc at most 3 months — refused before sending', async () => {
    const { api, seen } = client(emptyFiscal);
    const window = { StartUtc: '2025-01-01T00:00:00Z', EndUtc: '2025-01-02T00:00:00Z' };
    const many = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);
    const cases = [
      { DeviceIds: many(101), States: ['Pending'], UpdatedUtc: window },
      { CommandIds: many(1001) },
      { CommandIds: ['a'], EnterpriseIds: many(1001) },
      {
        DeviceIds: ['d'],
        States: ['Pending'],
        UpdatedUtc: { StartUtc: '2025-01-01T00:00:00Z', EndUtc: '2025-04-02T00:00:00Z' },
      },
    ];
    for (const filter of cases) {
      await expect(all(api.fiscalCommands(filter as never))).rejects.toMatchObject({
        code: 'REQUEST_INVALID',
      });
    }
    expect(seen).toHaveLength(0);
  });
});

describe('Part B › Endpoints: commands/getAllByIds, commands/update, commands/addKeyCutter — what the client sends', () => {
  const okFor = (r: SeenRequest) =>
    r.operation === 'commands/addKeyCutter'
      ? reply(200, loadFixture('commands-addKeyCutter.response.json'))
      : r.operation === 'commands/update'
        ? reply(200, {})
        : reply(200, { Commands: [] });

  it('Part B › Endpoints: commands/getAllByIds — CommandIds, at most 1000 per request', async () => {
    const { api, seen } = client(okFor);
    await api.commandsByIds(Array.from({ length: 1500 }, (_, i) => `c${i}`));
    expect(seen.map((s) => (s.body.CommandIds as string[]).length)).toEqual([1000, 500]);
    const { api: one, seen: sample } = client(okFor);
    await one.commandsByIds(['aa20961f-6d9e-4b35-ad25-071213530aec']);
    expect(sample[0]?.body).toEqual(loadFixture('commands-getAllByIds.request.json'));
  });

  it('Part B › Endpoints: commands/update — CommandId and State, Progress a number, Notes a string', async () => {
    const { api, seen } = client(okFor);
    await api.updateCommand({ CommandId: 'aa20961f-6d9e-4b35-ad25-071213530aec', State: 'Processed' });
    await api.updateCommand({ CommandId: 'c', State: 'Processing', Progress: 0.5 });
    await api.updateCommand({ CommandId: 'c', State: 'Error', Notes: 'Printer out of paper' });
    expect(seen[0]?.body).toEqual(loadFixture('commands-update.request.json'));
    expect(seen[1]?.body).toEqual({ ...TOKENS, CommandId: 'c', State: 'Processing', Progress: 0.5 });
    expect(seen[2]?.body).toEqual({
      ...TOKENS,
      CommandId: 'c',
      State: 'Error',
      Notes: 'Printer out of paper',
    });
  });

  it('Part B › Endpoints: commands/addKeyCutter — KeyCutterId, ReservationId, KeyCount, and EnterpriseId when given (portfolio tokens); returns CommandId', async () => {
    const { api, seen } = client(okFor);
    const request = loadFixture('commands-addKeyCutter.request.json');
    const id = await api.addKeyCutter({
      EnterpriseId: request.EnterpriseId as string,
      KeyCutterId: request.KeyCutterId as string,
      ReservationId: request.ReservationId as string,
      KeyCount: request.KeyCount as number,
    });
    await api.addKeyCutter({ KeyCutterId: 'k', ReservationId: 'r', KeyCount: 2 });
    expect(seen[0]?.body).toEqual(request);
    expect(seen[1]?.body).toEqual({ ...TOKENS, KeyCutterId: 'k', ReservationId: 'r', KeyCount: 2 });
    expect(id).toBe(loadFixture('commands-addKeyCutter.response.json').CommandId);
  });
});

describe('Part B › Endpoints (Cursor semantics) and › Limits (Count): how the client pages', () => {
  /** A platform that caps Count at `cap` and answers the last item's id as Cursor (null only when empty). */
  function capped(items: Json[], cap: number) {
    return client((r) => {
      const { Count, Cursor } = r.body.Limitation as { Count: number; Cursor?: string };
      const start = Cursor ? items.findIndex((i) => i.Id === Cursor) + 1 : 0;
      const page = items.slice(start, start + Math.min(Count, cap));
      return reply(200, { Commands: page, Cursor: page.at(-1)?.Id ?? null });
    });
  }
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ ...copy(DATA_ITEM), Id: `cmd-${n - i}` }));

  it('Part B › Limits: a platform may cap Limitation.Count (no upper bound shown) — paging goes on while Cursor is not null, whatever the page size', async () => {
    const { api, seen } = capped(items(23), 10);
    const pages = await all(api.fiscalCommands({ CommandIds: ['cmd-1'] }, { pageSize: 100 }));
    expect(pages.map((p) => p.length)).toEqual([10, 10, 3, 0]);
    expect(seen.map((s) => s.body.Limitation)).toEqual([
      { Count: 100 },
      { Count: 100, Cursor: 'cmd-14' },
      { Count: 100, Cursor: 'cmd-4' },
      { Count: 100, Cursor: 'cmd-1' },
    ]);
  });

  it('Part B › Endpoints (Cursor semantics): the response Cursor is passed back in Limitation.Cursor; a null or absent Cursor ends', async () => {
    const sample = client(() => reply(200, { Commands: [copy(DATA_ITEM)], Cursor: null }));
    expect(await all(sample.api.fiscalCommands({ CommandIds: ['a'] }))).toHaveLength(1);
    const absent = client(() => reply(200, { Commands: [copy(DATA_ITEM)] }));
    expect(await all(absent.api.fiscalCommands({ CommandIds: ['a'] }))).toHaveLength(1);
    expect(sample.seen).toHaveLength(1);
    expect(absent.seen).toHaveLength(1);
  });

  it('Part B › Endpoints: the sample response (two items, Count 100, Cursor = last id) is not the end: the client asks from that cursor', async () => {
    const { api, seen } = client((_r) =>
      reply(200, seen.length === 1 ? SAMPLE_FISCAL : { Commands: [], Cursor: null }),
    );
    const pages = await all(api.fiscalCommands({ CommandIds: ['a'] }));
    expect(pages.map((p) => p.length)).toEqual([2, 0]);
    expect(seen[1]?.body.Limitation).toEqual({ Count: 100, Cursor: SAMPLE_FISCAL.Cursor });
  });
});

describe('Part B › Resources › Fiscal machine command data: what the client accepts', () => {
  const fiscalOf = (item: NormalizedItem) => {
    if (!item.ok) throw item.error;
    if (item.command.data.kind !== 'fiscal') throw new Error('not fiscal');
    return item.command.data.fiscal;
  };

  it('Part B › Resources › Fiscal machine command data: both sample items (ItalianFiscalMachineData, ItalianFiscalMachinePayload)', () => {
    const data = fiscalOf(normalizeFiscalMachineCommand(copy(DATA_ITEM)));
    expect(data.document).toEqual({ type: 'data', isRefund: false, printerSerialNumber: 'FP001-123456' });
    expect(data.fiscalMachineId).toBe('FM-001');
    expect(data.machineSettings.value).toEqual({ printerPort: 'COM1', baudRate: 9600 });
    const payload = fiscalOf(normalizeFiscalMachineCommand(copy(PAYLOAD_ITEM)));
    expect(payload.document).toEqual({ type: 'payload', base64: ITALIAN_PAYLOAD.Payload });
  });

  it('Part B › Resources › Fiscal machine command data (FiscalMachineAdditionalData): Discriminator absent — the shape is told by the object present', () => {
    const data = fiscalOf(
      normalizeFiscalMachineCommand(withCommandData({ ItalianFiscalMachineData: ITALIAN_DATA })),
    );
    expect(data.document).toMatchObject({ type: 'data', isRefund: false });
    const payload = fiscalOf(
      normalizeFiscalMachineCommand(withCommandData({ ItalianFiscalMachinePayload: ITALIAN_PAYLOAD })),
    );
    expect(payload.document).toMatchObject({ type: 'payload' });
  });

  it('Part B › Resources › Fiscal machine command data (FiscalMachineAdditionalData): Discriminator null — the same', () => {
    const payload = fiscalOf(
      normalizeFiscalMachineCommand(
        withCommandData({
          Discriminator: null,
          ItalianFiscalMachineData: null,
          ItalianFiscalMachinePayload: ITALIAN_PAYLOAD,
        }),
      ),
    );
    expect(payload.document).toMatchObject({ type: 'payload' });
    const data = fiscalOf(
      normalizeFiscalMachineCommand(
        withCommandData({ Discriminator: null, ItalianFiscalMachineData: ITALIAN_DATA }),
      ),
    );
    expect(data.document).toMatchObject({ type: 'data' });
  });

  it('Part B › Resources › Fiscal machine command data (FiscalMachineAdditionalData): malformed only when neither or both objects are there without a Discriminator, or CommandData is absent', () => {
    const cases: Array<[string, Json | undefined, RegExp]> = [
      [
        'neither',
        { Discriminator: null, ItalianFiscalMachineData: null, ItalianFiscalMachinePayload: null },
        /neither/,
      ],
      [
        'both',
        { ItalianFiscalMachineData: ITALIAN_DATA, ItalianFiscalMachinePayload: ITALIAN_PAYLOAD },
        /both/,
      ],
      ['no CommandData', undefined, /no CommandData/],
      [
        'named object absent',
        { Discriminator: 'ItalianFiscalMachinePayload', ItalianFiscalMachineData: ITALIAN_DATA },
        /no usable/,
      ],
    ];
    for (const [name, data, message] of cases) {
      const item = normalizeFiscalMachineCommand(withCommandData(data));
      expect(item.ok, name).toBe(false);
      if (!item.ok) {
        expect(item.error.code, name).toBe('COMMAND_INVALID');
        expect(item.error.message, name).toMatch(message);
        expect(item.id, name).toBe(DATA_ITEM.Id);
      }
    }
    // With a Discriminator, both objects present is fine: it names the one to use.
    const named = normalizeFiscalMachineCommand(
      withCommandData({
        Discriminator: 'ItalianFiscalMachinePayload',
        ItalianFiscalMachineData: ITALIAN_DATA,
        ItalianFiscalMachinePayload: ITALIAN_PAYLOAD,
      }),
    );
    expect(fiscalOf(named).document).toMatchObject({ type: 'payload' });
  });

  it('Part B › Resources › Fiscal machine command data (Device): Type FiscalMachine and Printer both occur — a Printer-typed item is still a fiscal command', () => {
    const item = copy(DATA_ITEM) as Json;
    item.Device = { ...(item.Device as Json), Type: 'Printer' };
    const normalized = normalizeFiscalMachineCommand(item);
    expect(normalized).toMatchObject({
      ok: true,
      command: { device: { type: 'Printer' }, data: { kind: 'fiscal' } },
    });
    expect(listedTypeFits('FiscalMachine', 'FiscalMachine')).toBe(true);
    expect(listedTypeFits('FiscalMachine', 'Printer')).toBe(true);
    expect(listedTypeFits('FiscalMachine', 'KeyCutter')).toBe(false);
    expect(listedTypeFits('KeyCutter', 'Printer')).toBe(false);
  });

  it('Part B › Resources › Fiscal machine command data: optional fields absent or null (Creator, TaxIdentifier, Device.Identifier) are accepted', () => {
    const item = copy(DATA_ITEM) as Json;
    delete item.Creator;
    delete item.TaxIdentifier;
    item.Device = { Id: 'd', Type: 'FiscalMachine', Name: 'RT' };
    expect(normalizeFiscalMachineCommand(item).ok).toBe(true);
    const nulls = copy(DATA_ITEM) as Json;
    nulls.TaxIdentifier = null;
    expect(normalizeFiscalMachineCommand(nulls).ok).toBe(true);
  });

  it('Part B › Resources › Bill (version 2025-06-23): a bill with only its required fields is accepted', () => {
    const item = copy(DATA_ITEM) as Json;
    item.Bill = {
      Id: 'b',
      EnterpriseId: 'e',
      AccountId: 'a',
      AccountType: 'Company',
      State: 'Open',
      CreatedUtc: '2025-01-15T10:00:00Z',
      UpdatedUtc: '2025-01-15T10:00:00Z',
      CorrectionState: 'Bill',
    };
    // AccountType is kept as the buyer's kind: the fiscal core gives a lottery code to consumers only.
    expect(fiscalOf(normalizeFiscalMachineCommand(item)).bill).toEqual({
      id: 'b',
      enterpriseId: 'e',
      buyer: { kind: 'company' },
    });
  });
});

describe('Part B › States and transitions: command states the client accepts', () => {
  it('Part B › States and transitions: the six command states are read as such', () => {
    expect([...COMMAND_STATES]).toEqual([
      'Pending',
      'Received',
      'Processing',
      'Processed',
      'Cancelled',
      'Error',
    ]);
    for (const state of COMMAND_STATES) {
      expect(normalizeFiscalMachineCommand({ ...copy(DATA_ITEM), State: state })).toMatchObject({
        ok: true,
        command: { state },
      });
    }
  });

  it('Part B › States and transitions: a state outside the document is kept as what it is (the read before a start holds such a command), never turned into a known one', () => {
    const item = normalizeFiscalMachineCommand({ ...copy(DATA_ITEM), State: 'Paused' });
    expect(item).toMatchObject({ ok: false, id: DATA_ITEM.Id, state: 'Paused' });
  });
});

describe('Part B › Resources › Command (generic, returned by getAllByIds): what the client accepts', () => {
  it('Part B › Resources › Command: the print sample', () => {
    const [sample] = loadFixture('commands-getAllByIds.response.json').Commands as Json[];
    expect(normalizeCommand(sample)).toMatchObject({
      ok: true,
      command: { device: { type: 'Printer' }, data: { kind: 'print', print: { copyCount: 1 } } },
    });
  });
});
