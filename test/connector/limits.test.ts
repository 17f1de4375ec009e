import { describe, expect, it } from 'vitest';
import { createConnectorClient } from '../../src/connector/index.js';
import { type AgentError, isAgentError } from '../../src/errors.js';
import { BASE_URL, recordingFetch, reply, SAMPLE } from './fake-platform.js';

function client() {
  const recorder = recordingFetch((request) => {
    const ids = (request.body.CommandIds as string[] | undefined) ?? [];
    return reply(200, { Commands: ids.map((id) => ({ Id: id, Bad: true })), Cursor: null });
  });
  return {
    api: createConnectorClient({ baseUrl: BASE_URL, ...SAMPLE, fetch: recorder.fetch }),
    seen: recorder.seen,
  };
}

async function rejection(work: () => Promise<unknown>): Promise<AgentError> {
  try {
    await work();
  } catch (error) {
    if (isAgentError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

async function drain(pages: AsyncIterable<unknown[]>): Promise<void> {
  for await (const _ of pages) {
    // read every page
  }
}

const ids = (n: number, prefix = 'id') => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
const week = { StartUtc: '2025-01-10T00:00:00Z', EndUtc: '2025-01-17T00:00:00Z' };
const byDevice = { DeviceIds: ['d1'], States: ['Pending' as const], UpdatedUtc: week };

describe('requests outside the documented limits are refused before sending', () => {
  const cases: [string, (api: ReturnType<typeof client>['api']) => Promise<unknown>][] = [
    ['1001 CommandIds', (api) => drain(api.fiscalCommands({ CommandIds: ids(1001) }))],
    ['101 DeviceIds', (api) => drain(api.fiscalCommands({ ...byDevice, DeviceIds: ids(101) }))],
    ['no States', (api) => drain(api.fiscalCommands({ ...byDevice, States: [] }))],
    [
      'UpdatedUtc longer than 3 months',
      (api) =>
        drain(
          api.fiscalCommands({
            ...byDevice,
            UpdatedUtc: { StartUtc: '2025-01-01T00:00:00Z', EndUtc: '2025-04-02T00:00:00Z' },
          }),
        ),
    ],
    [
      'UpdatedUtc ending before it starts',
      (api) =>
        drain(
          api.fiscalCommands({ ...byDevice, UpdatedUtc: { StartUtc: week.EndUtc, EndUtc: week.StartUtc } }),
        ),
    ],
    [
      'both filter sets at once',
      (api) =>
        drain(api.fiscalCommands({ ...byDevice, CommandIds: ['c1'] } as unknown as { CommandIds: string[] })),
    ],
    ['neither filter set', (api) => drain(api.fiscalCommands({} as unknown as { CommandIds: string[] }))],
    [
      '1001 EnterpriseIds',
      (api) => drain(api.fiscalCommands({ CommandIds: ['c1'], EnterpriseIds: ids(1001) })),
    ],
    ['Count 0', (api) => drain(api.fiscalCommands({ CommandIds: ['c1'] }, { pageSize: 0 }))],
    ['Count 1001', (api) => drain(api.orderItems({ BillIds: ['b1'] }, { pageSize: 1001 }))],
    ['Count 2.5', (api) => drain(api.payments({ BillIds: ['b1'] }, { pageSize: 2.5 }))],
    ['maxPages 0', (api) => drain(api.payments({ BillIds: ['b1'] }, { maxPages: 0 }))],
    ['1001 BillIds', (api) => drain(api.orderItems({ BillIds: ids(1001) }))],
    ['an empty command id', (api) => api.commandsByIds(['ok', ''])],
    ['KeyCount 0', (api) => api.addKeyCutter({ KeyCutterId: 'k', ReservationId: 'r', KeyCount: 0 })],
    ['an unknown state', (api) => api.updateCommand({ CommandId: 'c', State: 'Done' as 'Processed' })],
    [
      'a negative progress',
      (api) => api.updateCommand({ CommandId: 'c', State: 'Processing', Progress: -1 }),
    ],
  ];

  for (const [name, run] of cases) {
    it(name, async () => {
      const { api, seen } = client();
      const error = await rejection(() => run(api));
      expect(error.code).toBe('REQUEST_INVALID');
      expect(error.details.operation).toEqual(expect.any(String));
      expect(seen).toHaveLength(0);
      expect(api.budget.snapshot().used).toBe(0);
    });
  }

  it('names the offending field', async () => {
    const { api } = client();
    const error = await rejection(() => drain(api.fiscalCommands({ ...byDevice, DeviceIds: ids(101) })));
    expect(error.message).toContain('DeviceIds');
  });

  it('accepts the limits themselves: 1000 ids, 100 devices, Count 1000, 3 months', async () => {
    const { api, seen } = client();
    await drain(api.fiscalCommands({ CommandIds: ids(1000) }, { pageSize: 1000 }));
    await drain(
      api.fiscalCommands({
        ...byDevice,
        DeviceIds: ids(100),
        UpdatedUtc: { StartUtc: '2025-01-01T00:00:00Z', EndUtc: '2025-04-01T00:00:00Z' },
      }),
    );
    expect(seen.map((s) => s.operation)).toEqual([
      'fiscalMachineCommands/getAll',
      'fiscalMachineCommands/getAll',
    ]);
  });
});

describe('commands/getAllByIds batching', () => {
  it('splits more than 1000 ids into batches of at most 1000, deduplicated', async () => {
    const { api, seen } = client();
    const wanted = [...ids(2500), 'id-0', 'id-1'];
    const items = await api.commandsByIds(wanted);
    expect(seen.map((s) => (s.body.CommandIds as string[]).length)).toEqual([1000, 1000, 500]);
    expect(new Set(seen.flatMap((s) => s.body.CommandIds as string[])).size).toBe(2500);
    // Malformed items come back as errors naming the command, never sinking the batch.
    expect(items).toHaveLength(2500);
    expect(items[0]).toMatchObject({ ok: false, id: 'id-0', error: { code: 'COMMAND_INVALID' } });
  });

  it('sends nothing for an empty list', async () => {
    const { api, seen } = client();
    expect(await api.commandsByIds([])).toEqual([]);
    expect(seen).toHaveLength(0);
  });
});
