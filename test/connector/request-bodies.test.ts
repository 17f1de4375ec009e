import { describe, expect, it } from 'vitest';
import { type ConnectorClientOptions, createConnectorClient } from '../../src/connector/index.js';
import { BASE_URL, loadFixture, recordingFetch, reply, SAMPLE } from './fake-platform.js';

/**
 * The client must build exactly the docs' sample request for the same inputs. The fake platform
 * answers every operation with the docs' sample response.
 */
function sampleClient(extra: Partial<ConnectorClientOptions> = {}) {
  const recorder = recordingFetch((request) =>
    reply(200, loadFixture(`${request.operation.replace('/', '-')}.response.json`)),
  );
  const client = createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: recorder.fetch, ...extra });
  return { client, seen: recorder.seen };
}

/** The first page only: the fake answers every request with the same sample. */
async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  for await (const page of pages) return page;
  return [];
}

const fiscalSample = loadFixture('fiscalMachineCommands-getAll.request.json');

describe('request bodies match the documented samples', () => {
  it('fiscalMachineCommands/getAll by DeviceIds, States, UpdatedUtc, EnterpriseIds and Limitation', async () => {
    const { client, seen } = sampleClient();
    const items = await collect(
      client.fiscalCommands({
        DeviceIds: ['d117866d-78de-4459-9077-42d7ea0120e3', '7dafffff-a727-4917-a203-bd53995f21bf'],
        States: ['Processed', 'Processing'],
        UpdatedUtc: { StartUtc: '2025-01-10T00:00:00Z', EndUtc: '2025-01-17T00:00:00Z' },
        EnterpriseIds: ['3fa85f64-5717-4562-b3fc-2c963f66afa6', '4d0201db-36f5-428b-8d11-4f0a65e960cc'],
      }),
    );
    const [request] = seen;
    expect(request?.url).toBe(`${BASE_URL}/api/connector/v1/fiscalMachineCommands/getAll`);
    expect(request?.method).toBe('POST');
    expect(request?.contentType).toBe('application/json');
    expect(request?.body).toEqual(fiscalSample);
    expect(items.map((i) => i.ok)).toEqual([true, true]);
  });

  it('takes EnterpriseIds from the client options when the filter has none', async () => {
    const { client, seen } = sampleClient({
      enterpriseIds: ['3fa85f64-5717-4562-b3fc-2c963f66afa6', '4d0201db-36f5-428b-8d11-4f0a65e960cc'],
    });
    await collect(
      client.fiscalCommands(
        {
          DeviceIds: ['d117866d-78de-4459-9077-42d7ea0120e3', '7dafffff-a727-4917-a203-bd53995f21bf'],
          States: ['Processed', 'Processing'],
          UpdatedUtc: { StartUtc: '2025-01-10T00:00:00Z', EndUtc: '2025-01-17T00:00:00Z' },
        },
        { pageSize: 100 },
      ),
    );
    expect(seen[0]?.body).toEqual(fiscalSample);
  });

  it('sends EnterpriseIds null when none are configured (the key is required)', async () => {
    const { client, seen } = sampleClient();
    await collect(client.fiscalCommands({ CommandIds: ['aa20961f-6d9e-4b35-ad25-071213530aec'] }));
    expect(seen[0]?.body).toEqual({
      ClientToken: SAMPLE.clientToken,
      AccessToken: SAMPLE.accessToken,
      Client: SAMPLE.client,
      CommandIds: ['aa20961f-6d9e-4b35-ad25-071213530aec'],
      EnterpriseIds: null,
      Limitation: { Count: 100 },
    });
  });

  it('commands/getAllByIds', async () => {
    const { client, seen } = sampleClient();
    const items = await client.commandsByIds(['aa20961f-6d9e-4b35-ad25-071213530aec']);
    expect(seen[0]?.url).toBe(`${BASE_URL}/api/connector/v1/commands/getAllByIds`);
    expect(seen[0]?.body).toEqual(loadFixture('commands-getAllByIds.request.json'));
    expect(items[0]).toMatchObject({ ok: true, command: { data: { kind: 'print' } } });
  });

  it('commands/update', async () => {
    const { client, seen } = sampleClient();
    await client.updateCommand({ CommandId: 'aa20961f-6d9e-4b35-ad25-071213530aec', State: 'Processed' });
    expect(seen[0]?.url).toBe(`${BASE_URL}/api/connector/v1/commands/update`);
    expect(seen[0]?.body).toEqual(loadFixture('commands-update.request.json'));
  });

  it('commands/update sends Progress as a fraction and keeps Notes', async () => {
    const { client, seen } = sampleClient();
    await client.updateCommand({ CommandId: 'c1', State: 'Processing', Progress: 0.33333 });
    await client.updateCommand({ CommandId: 'c1', State: 'Processed', Notes: 'Receipt 0012-0034' });
    expect(seen[0]?.body).toMatchObject({ Progress: 0.333 });
    expect(seen[1]?.body).toMatchObject({ Notes: 'Receipt 0012-0034', State: 'Processed' });
  });

  it('commands/addKeyCutter', async () => {
    const { client, seen } = sampleClient();
    const id = await client.addKeyCutter({
      EnterpriseId: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      KeyCutterId: '7dafffff-a727-4917-a203-bd53995f21bf',
      ReservationId: 'be35b39e-ad7e-460a-8de9-4c7581e016a2',
      KeyCount: 1,
    });
    expect(seen[0]?.url).toBe(`${BASE_URL}/api/connector/v1/commands/addKeyCutter`);
    expect(seen[0]?.body).toEqual(loadFixture('commands-addKeyCutter.request.json'));
    expect(id).toBe('2391a3df-1c61-4131-b6f8-c85b4234adcb');
  });

  it('commands/getAllActive', async () => {
    const { client, seen } = sampleClient();
    const items = await client.activeCommands();
    expect(seen[0]?.url).toBe(`${BASE_URL}/api/connector/v1/commands/getAllActive`);
    expect(seen[0]?.body).toEqual(loadFixture('commands-getAllActive.request.json'));
    expect(items).toHaveLength(1);
  });

  it('devices/getAll', async () => {
    const { client, seen } = sampleClient();
    const devices = await client.devices();
    expect(seen[0]?.url).toBe(`${BASE_URL}/api/connector/v1/devices/getAll`);
    expect(seen[0]?.body).toEqual(loadFixture('devices-getAll.request.json'));
    expect(devices).toEqual([
      { Id: 'd14efcfd-75b9-4bd3-9f10-5657a01f860a', Name: 'Key cutter 1', Type: 'KeyCutter' },
    ]);
  });

  it('orderItems/getAll with AccountIds, CreatedUtc and EnterpriseIds', async () => {
    const { client, seen } = sampleClient();
    const items = await collect(
      client.orderItems({
        AccountIds: ['fadd5bb6-b428-45d5-94f8-fd0d89fece6d', 'bccdafd1-3e44-439d-861f-341526b597a9'],
        CreatedUtc: { StartUtc: '2023-01-01T00:00:00Z', EndUtc: '2023-01-31T23:59:59Z' },
        EnterpriseIds: ['3fa85f64-5717-4562-b3fc-2c963f66afa6', '4d0201db-36f5-428b-8d11-4f0a65e960cc'],
      }),
    );
    expect(seen[0]?.url).toBe(`${BASE_URL}/api/connector/v1/orderItems/getAll`);
    expect(seen[0]?.body).toEqual(loadFixture('orderItems-getAll.request.json'));
    expect(items.map((i) => i.UnitAmount.GrossValue)).toEqual([5, 100]);
  });

  it('payments/getAll with its many filters', async () => {
    const { client, seen } = sampleClient();
    const interval = { StartUtc: '2023-03-01T00:00:00Z', EndUtc: '2023-03-31T00:00:00Z' };
    const payments = await collect(
      client.payments(
        {
          PaymentIds: ['f6313945-94c1-4e27-b402-031c2a8c989f', 'be922eb7-bc5f-4877-b847-1120c0c2acd2'],
          AccountIds: ['fadd5bb6-b428-45d5-94f8-fd0d89fece6d'],
          BillIds: ['ea087d64-3901-4eee-b0b7-9fce4c58a005', 'd23ac52f-9b86-4a03-a6fe-5822dfcfc5c4'],
          ReservationIds: ['0f515589-99b4-423d-b83a-b237009f0509', 'b7a3f5cb-1e69-4a5f-a069-10f461996d7f'],
          CreatedUtc: interval,
          UpdatedUtc: interval,
          ChargedUtc: interval,
          ClosedUtc: interval,
          SettlementUtc: interval,
          Currency: 'EUR',
          AccountingStates: ['Closed', 'Open'],
          States: ['Charged', 'Pending'],
          Type: 'Payment',
          EnterpriseIds: ['3fa85f64-5717-4562-b3fc-2c963f66afa6', '4d0201db-36f5-428b-8d11-4f0a65e960cc'],
        },
        { pageSize: 10 },
      ),
    );
    expect(seen[0]?.url).toBe(`${BASE_URL}/api/connector/v1/payments/getAll`);
    expect(seen[0]?.body).toEqual(loadFixture('payments-getAll.request.json'));
    expect(payments).toHaveLength(3);
  });

  it('ignores a trailing slash of the platform address', async () => {
    const { client, seen } = sampleClient({ baseUrl: `${BASE_URL}/` });
    await client.devices();
    expect(seen[0]?.url).toBe(`${BASE_URL}/api/connector/v1/devices/getAll`);
  });
});
