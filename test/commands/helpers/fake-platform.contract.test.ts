import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import type { ConnectorApi } from '../../../src/connector/api.js';
import { createConnectorClient } from '../../../src/connector/client.js';
import type { NormalizedItem } from '../../../src/connector/model.js';
import { COMMAND_STATES, type CommandState } from '../../../src/connector/wire.js';
import {
  type CommandView,
  type PlatformSimulator,
  startPlatformSimulator,
} from '../../../src/platform-simulator/index.js';
import { updateAllowed } from '../../helpers/command-states.js';
import { FakePlatform } from './fake-platform.js';

/**
 * The engine's tests play the platform with `FakePlatform` (in memory, on a ManualClock, every
 * request recorded). This contract proves it answers like the platform simulator — the faithful
 * fake, itself checked against the interface document — for everything those tests use: which
 * commands each read returns, the `UpdatedUtc` window, which `commands/update` moves are taken or
 * refused, and what `commands/addKeyCutter` creates. Both hold the same commands (the simulator's
 * own wire renderings), and each check asks both the same question through `ConnectorApi`.
 */

const T0 = Date.parse('2026-03-02T10:00:00Z');
const FISCAL = 'c0a00000-0000-4000-8000-000000000001';
const KEYS = 'c0a00000-0000-4000-8000-000000000002';
const PRINTER = 'c0a00000-0000-4000-8000-000000000003';

describe('FakePlatform answers like the platform simulator', () => {
  const clock = new ManualClock(T0);
  let sim: PlatformSimulator;
  let real: ConnectorApi;
  let fake: FakePlatform;

  beforeAll(async () => {
    sim = await startPlatformSimulator({
      clock,
      scenario: {
        devices: [
          {
            id: FISCAL,
            type: 'FiscalMachine',
            name: 'RT',
            apiUrl: 'http://127.0.0.1:1',
            serialNumber: '99MEY000009',
          },
          { id: KEYS, type: 'KeyCutter', name: 'Encoder', keyCutterId: '7' },
          { id: PRINTER, type: 'Printer', name: 'Laser' },
        ],
        reservations: { generate: 3 },
        generator: { autostart: false, rate: 0 },
      },
    });
    real = createConnectorClient({ baseUrl: sim.url, ...sim.tokens, client: 'contract 1.0' });
    fake = new FakePlatform(() => clock.now());
  });
  afterAll(async () => {
    await sim.close();
  });

  /** A command made by the simulator and given to the fake as the same wire items. */
  const both = (view: CommandView): string => {
    fake.add({ wire: view.wire.command, ...(view.wire.fiscal ? { fiscalWire: view.wire.fiscal } : {}) });
    return view.id;
  };
  const idOf = (i: NormalizedItem) => (i.ok ? i.command.id : (i.id ?? '(no id)'));
  const ids = (items: NormalizedItem[]) => items.map(idOf).sort();
  const states = (items: NormalizedItem[]) =>
    Object.fromEntries(items.map((i) => [idOf(i), i.ok ? i.command.state : 'invalid']));
  const ask = async <T>(question: (api: ConnectorApi) => Promise<T>) => ({
    simulator: await question(real),
    fake: await question(fake),
  });
  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => 'taken',
      (e: { code?: string }) => `refused ${e.code}`,
    );
  const fiscalWindow = (startMs: number, endMs: number, states: CommandState[]) => ({
    DeviceIds: [FISCAL],
    States: states,
    UpdatedUtc: { StartUtc: new Date(startMs).toISOString(), EndUtc: new Date(endMs).toISOString() },
  });
  async function pages(iterable: AsyncIterable<NormalizedItem[]>): Promise<NormalizedItem[]> {
    const out: NormalizedItem[] = [];
    for await (const page of iterable) out.push(...page);
    return out;
  }

  it('returns the same commands from every read, active ones only where the platform says so', async () => {
    const keys = both(sim.createKeys({ deviceId: KEYS }));
    const print = both(sim.createPrint({ deviceId: PRINTER }));
    const fiscal = both(sim.createFiscalData({ deviceId: FISCAL }));
    await clock.advance(1000);
    const later = both(sim.createKeys({ deviceId: KEYS }));
    await real.updateCommand({ CommandId: later, State: 'Received' });
    await fake.updateCommand({ CommandId: later, State: 'Received' });
    await real.updateCommand({ CommandId: print, State: 'Processing', Progress: 0 });
    await fake.updateCommand({ CommandId: print, State: 'Processing', Progress: 0 });

    const active = await ask(async (api) => {
      const items = await api.activeCommands();
      return states(items.filter((i) => [keys, print, later].includes(idOf(i))));
    });
    expect(active.fake).toEqual(active.simulator);
    expect(active.fake).toEqual({ [keys]: 'Pending', [later]: 'Received' });

    const byIds = await ask(async (api) => ids(await api.commandsByIds([keys, print, later, 'no-such-id'])));
    expect(byIds.fake).toEqual(byIds.simulator);
    // "The active commands" here are every command not yet terminal (a Processing one too),
    // unlike commands/getAllActive (Pending and Received only).
    expect(byIds.fake).toEqual([keys, print, later].sort());

    const fiscalById = await ask(async (api) =>
      ids(await pages(api.fiscalCommands({ CommandIds: [fiscal] }))),
    );
    expect(fiscalById.fake).toEqual(fiscalById.simulator);
    expect(fiscalById.fake).toEqual([fiscal]);

    // No ids is no question; more than the platform's 1000 per request is asked in batches.
    const edges = await ask(async (api) => ({
      none: ids(await api.commandsByIds([])),
      many: ids(await api.commandsByIds([...Array.from({ length: 1000 }, (_, i) => `id-${i}`), keys])),
    }));
    expect(edges.fake).toEqual(edges.simulator);
    expect(edges.fake).toEqual({ none: [], many: [keys] });
  });

  it('filters fiscal commands by state and by the half-open UpdatedUtc window', async () => {
    const first = both(sim.createFiscalData({ deviceId: FISCAL }));
    const createdAt = clock.now();
    await clock.advance(5000);
    const second = both(sim.createFiscalPayload({ deviceId: FISCAL }));
    for (const api of [real, fake]) await api.updateCommand({ CommandId: second, State: 'Received' });
    const windows = [
      fiscalWindow(createdAt, createdAt + 5000, ['Pending', 'Received']), // the first only
      fiscalWindow(createdAt + 1, createdAt + 5001, ['Pending', 'Received']), // the second only
      fiscalWindow(createdAt, createdAt + 5001, ['Received']), // by state
      fiscalWindow(createdAt - 60_000, createdAt, ['Pending']), // ends where the first begins
    ];
    for (const window of windows) {
      const answer = await ask(async (api) =>
        ids(await pages(api.fiscalCommands(window))).filter((id) => id === first || id === second),
      );
      expect(answer.fake, JSON.stringify(window)).toEqual(answer.simulator);
    }
  });

  it('takes and refuses the same commands/update moves, from every state to every state', async () => {
    const drive: Record<CommandState, Array<[CommandState, string?]>> = {
      Pending: [],
      Received: [['Received']],
      Processing: [['Received'], ['Processing']],
      Processed: [['Received'], ['Processing'], ['Processed', 'done']],
      Error: [['Received'], ['Error', 'failed']],
      Cancelled: [],
    };
    const seen: string[] = [];
    for (const from of COMMAND_STATES) {
      for (const to of COMMAND_STATES) {
        const id = both(sim.createKeys({ deviceId: KEYS }));
        for (const [state, notes] of drive[from]) {
          for (const api of [real, fake]) {
            await api.updateCommand({ CommandId: id, State: state, ...(notes ? { Notes: notes } : {}) });
          }
        }
        if (from === 'Cancelled') {
          sim.cancelAsStaff(id);
          fake.setState(id, 'Cancelled');
        }
        const move = {
          CommandId: id,
          State: to,
          ...(to === 'Processing' ? { Progress: 0.5 } : { Notes: 'n' }),
        };
        const answer = await ask((api) => outcome(api.updateCommand(move)));
        expect(answer.fake, `${from} → ${to}`).toBe(answer.simulator);
        expect(answer.fake === 'taken', `${from} → ${to}`).toBe(updateAllowed(from, to));
        seen.push(`${from}→${to}:${answer.fake}`);
      }
    }
    expect(seen).toHaveLength(36);
    const unknown = await ask((api) =>
      outcome(api.updateCommand({ CommandId: 'no-such-id', State: 'Received' })),
    );
    expect(unknown.fake).toBe(unknown.simulator);
  });

  it('creates a Pending key command on the key cutter for commands/addKeyCutter', async () => {
    const reservation = sim.world.reservations[0];
    if (!reservation) throw new Error('the scenario has no reservation');
    const created = await ask(async (api) => {
      const id = await api.addKeyCutter({ KeyCutterId: KEYS, ReservationId: reservation.id, KeyCount: 2 });
      const [item] = await api.commandsByIds([id]);
      if (!item?.ok || item.command.data.kind !== 'keys') return item;
      return {
        state: item.command.state,
        device: item.command.device.id,
        kind: item.command.data.kind,
        keyCount: item.command.data.keys.keyCount,
      };
    });
    expect(created.fake).toEqual(created.simulator);
    expect(created.fake).toEqual({ state: 'Pending', device: KEYS, kind: 'keys', keyCount: 2 });
  });
});
