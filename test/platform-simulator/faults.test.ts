import { request } from 'node:http';
import { createGunzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { normalizeCommand, normalizeFiscalMachineCommand } from '../../src/connector/model.js';
import { GZIP_BOMB_INFLATED_BYTES } from '../../src/platform-simulator/connector-http.js';
import { noFaults } from '../../src/platform-simulator/fault-schema.js';
import { FaultController } from '../../src/platform-simulator/faults.js';
import { DEEP_NESTING_LEVELS, HUGE_STRING_LENGTH } from '../../src/platform-simulator/malformed.js';
import { createRng } from '../../src/platform-simulator/rng.js';
import { eventually } from '../helpers/eventually.js';
import { call, payloadBase64, startSim } from './support.js';

describe('request faults', () => {
  it('adds latency on the simulator clock, only to the listed operations', async () => {
    const clock = new ManualClock();
    const sim = await startSim({ clock });
    sim.setFaults({ latency: { ms: 2000, operations: ['commands/getAllActive'] } });
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
    let answered = false;
    const pending = call(sim, 'commands/getAllActive').then((a) => {
      answered = true;
      return a;
    });
    await eventually('the latency sleep', () => clock.pending > 0);
    await clock.advance(1999);
    // Not answered yet, by construction: the handler is still parked on the clock's sleep, and
    // a request that follows it (no latency for its operation) is served meanwhile.
    expect(clock.pending).toBe(1);
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
    expect(clock.pending).toBe(1);
    expect(answered).toBe(false);
    await clock.advance(1);
    expect((await pending).status).toBe(200);
    expect(sim.counters().faults.latency).toBe(1);
  });

  it('draws latency jitter within ±jitterMs', () => {
    const faults = new FaultController(noFaults(), createRng(1));
    faults.set({ latency: { ms: 100, jitterMs: 50 } });
    const samples = Array.from({ length: 200 }, () => faults.latencyMs('x'));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(50);
    expect(Math.max(...samples)).toBeLessThanOrEqual(150);
    expect(new Set(samples).size).toBeGreaterThan(20);
  });

  it('answers 5xx for the next N requests of an operation without handling them', async () => {
    const sim = await startSim();
    const { id } = sim.createKeys();
    sim.setFaults({ serverErrors: { next: 2, status: 502, operations: ['commands/update'] } });
    expect((await call(sim, 'commands/getAllActive')).status).toBe(200);
    const first = await call(sim, 'commands/update', { CommandId: id, State: 'Received' });
    expect(first.status).toBe(502);
    expect(first.headers.get('request-id')).toBeTruthy();
    expect((await call(sim, 'commands/update', { CommandId: id, State: 'Received' })).status).toBe(502);
    expect(sim.command(id)?.state).toBe('Pending');
    expect((await call(sim, 'commands/update', { CommandId: id, State: 'Received' })).status).toBe(200);
    expect(sim.counters().faults['server-error']).toBe(2);
  });

  it('spaces the next N faults out with every: the 3rd and the 6th request are reset, the rest pass', async () => {
    const sim = await startSim();
    sim.setFaults({ resets: { next: 2, every: 3 } });
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) {
      outcomes.push(
        await call(sim, 'devices/getAll').then(
          (a) => String(a.status),
          () => 'reset',
        ),
      );
    }
    expect(outcomes).toEqual(['200', '200', 'reset', '200', '200', 'reset', '200', '200']);
    expect(sim.faults().resets.next).toBe(0);
    // Setting another section keeps the count; setting the section itself starts it again.
    sim.setFaults({ resets: { next: 1, every: 2 } });
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
    sim.setFaults({ serverErrors: { rate: 0 } });
    await expect(call(sim, 'devices/getAll')).rejects.toThrow();
    expect(sim.counters().faults.reset).toBe(3);
  });

  it('answers 5xx at a rate', async () => {
    const sim = await startSim();
    sim.setFaults({ serverErrors: { rate: 1 } });
    expect((await call(sim, 'devices/getAll')).status).toBe(503);
    sim.setFaults({ serverErrors: { rate: 0 } });
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
  });

  it('resets the connection: the client sees a network error, the request log a status 0', async () => {
    const sim = await startSim();
    sim.setFaults({ resets: { next: 1 } });
    await expect(call(sim, 'devices/getAll')).rejects.toThrow();
    expect((await call(sim, 'devices/getAll')).status).toBe(200);
    expect(sim.requestLog().map((e) => [e.status, e.fault])).toEqual([
      [0, 'reset'],
      [200, undefined],
    ]);
  });

  it('leaves a request unanswered until the client gives up', async () => {
    const sim = await startSim();
    const { id } = sim.createKeys();
    sim.setFaults({ hangs: { next: 1, operations: ['commands/update'] } });
    const abort = new AbortController();
    const hanging = call(
      sim,
      'commands/update',
      { CommandId: id, State: 'Received' },
      { signal: abort.signal },
    );
    await eventually('the hang', () => sim.counters().faults.hang === 1);
    // The hung update was never handled: a later request, answered, still sees it Pending.
    const seen = await call(sim, 'commands/getAllByIds', { CommandIds: [id] });
    expect((seen.body.Commands as Array<{ State: string }>).map((c) => c.State)).toEqual(['Pending']);
    expect(sim.command(id)?.state).toBe('Pending');
    abort.abort();
    await expect(hanging).rejects.toThrow(/abort/i);
    expect((await call(sim, 'commands/update', { CommandId: id, State: 'Received' })).status).toBe(200);
  });

  it('refuses an invalid fault patch, naming the path, and keeps the switches', async () => {
    const sim = await startSim();
    sim.setFaults({ serverErrors: { rate: 0.5 } });
    expect(() => sim.setFaults({ serverErrors: { rate: 2 } })).toThrow(/serverErrors\.rate/);
    expect(() => sim.setFaults({ nonsense: true } as never)).toThrow(/nonsense|Unrecognized/);
    expect(sim.faults().serverErrors.rate).toBe(0.5);
    expect(sim.clearFaults().serverErrors.rate).toBe(0);
  });
});

describe('malformed command data', () => {
  it('bad-base64 breaks the fiscal payload and the printer file', async () => {
    const sim = await startSim();
    const fiscal = sim.createFiscalPayload({ malformed: 'bad-base64' });
    const print = sim.createPrint({ malformed: 'bad-base64' });
    const flat = await call(sim, 'fiscalMachineCommands/getAll', {
      CommandIds: [fiscal.id],
      Limitation: { Count: 1 },
    });
    const item = normalizeFiscalMachineCommand((flat.body.Commands as unknown[])[0]);
    expect(payloadBase64(item)).not.toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
    const legacy = normalizeCommand(fiscal.wire.command);
    expect(payloadBase64(legacy)).not.toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
    const printed = normalizeCommand(print.wire.command);
    expect(
      printed.ok && printed.command.data.kind === 'print' && printed.command.data.print.fileData,
    ).not.toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
  });

  it('garbage-fiscal-machine-data leaves FiscalMachineData that is not JSON', async () => {
    const sim = await startSim();
    const fiscal = sim.createFiscalData({ malformed: 'garbage-fiscal-machine-data' });
    const item = normalizeFiscalMachineCommand(fiscal.wire.fiscal);
    expect(
      item.ok && item.command.data.kind === 'fiscal' && item.command.data.fiscal.machineSettings.error,
    ).toMatch(/not JSON/);
    const keys = normalizeCommand(sim.createKeys({ malformed: 'garbage-fiscal-machine-data' }).wire.command);
    expect(keys.ok && keys.command.data.kind === 'keys' && keys.command.data.keys.settings.error).toMatch(
      /not JSON/,
    );
  });

  it('missing-field makes every kind fail validation, naming the command', async () => {
    const sim = await startSim();
    const made = [
      sim.createFiscalData({ malformed: 'missing-field' }),
      sim.createKeys({ malformed: 'missing-field' }),
      sim.createPrint({ malformed: 'missing-field' }),
    ];
    const active = await call(sim, 'commands/getAllActive');
    const items = (active.body.Commands as unknown[]).map(normalizeCommand);
    expect(items.map((i) => i.ok)).toEqual([false, false, false]);
    expect(items.map((i) => (i.ok ? undefined : i.id))).toEqual(made.map((m) => m.id).reverse());
    expect(normalizeFiscalMachineCommand(made[0]?.wire.fiscal).ok).toBe(false);
  });

  it('unknown-device-type makes the command "not mine"', async () => {
    const sim = await startSim();
    const keys = sim.createKeys({ malformed: 'unknown-device-type' });
    const normal = normalizeCommand(keys.wire.command);
    expect(normal.ok && normal.command.data).toEqual({ kind: 'other', deviceType: 'HologramProjector' });
  });

  it('huge-strings carries 256 KiB names through the API', async () => {
    const sim = await startSim();
    const keys = sim.createKeys({ malformed: 'huge-strings' });
    const answer = await call(sim, 'commands/getAllByIds', { CommandIds: [keys.id] });
    const raw = (answer.body.Commands as Array<{ Data: { LastName: string }; Device: { Name: string } }>)[0];
    expect(raw?.Data.LastName).toHaveLength(HUGE_STRING_LENGTH);
    expect(raw?.Device.Name).toHaveLength(HUGE_STRING_LENGTH);
    // The agent refuses such a command on its own (src/connector/bounds.ts), naming it.
    const normal = normalizeCommand(raw);
    expect(normal).toMatchObject({ ok: false, id: keys.id, error: { code: 'COMMAND_INVALID' } });
  });

  it('deep-nesting carries FiscalMachineData nested 10,000 deep', async () => {
    const sim = await startSim();
    const fiscal = sim.createFiscalData({ malformed: 'deep-nesting' });
    const answer = await call(sim, 'fiscalMachineCommands/getAll', {
      CommandIds: [fiscal.id],
      EnterpriseIds: null,
      Limitation: { Count: 10 },
    });
    const raw = (answer.body.Commands as Array<{ FiscalMachineData: string }>)[0];
    expect(raw?.FiscalMachineData.startsWith('{"a":'.repeat(100))).toBe(true);
    expect(raw?.FiscalMachineData).toHaveLength(DEEP_NESTING_LEVELS * 6 + 1);
  });
});

describe('a gzip bomb instead of the platform', () => {
  it('answers 200 with about 600 KB of gzip that inflates to 600 MB, and counts it', async () => {
    const sim = await startSim({ scenario: { faults: { gzipBomb: { next: 1 } } } });
    const raw = await new Promise<{ headers: Record<string, unknown>; compressed: number; inflated: number }>(
      (resolve, reject) => {
        const req = request(
          `${sim.url}/api/connector/v1/commands/getAllActive`,
          { method: 'POST' },
          (res) => {
            let compressed = 0;
            let inflated = 0;
            res.on('data', (c: Buffer) => {
              compressed += c.length;
            });
            res
              .pipe(createGunzip())
              .on('data', (c: Buffer) => {
                inflated += c.length;
              })
              .on('end', () => resolve({ headers: res.headers, compressed, inflated }))
              .on('error', reject);
          },
        );
        req.on('error', reject);
        req.end('{}');
      },
    );
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.compressed).toBeLessThan(1024 * 1024);
    expect(raw.inflated).toBe(GZIP_BOMB_INFLATED_BYTES);
    expect(sim.counters().faults['gzip-bomb']).toBe(1);
  });
});

describe('staff cancels while the agent processes', () => {
  it('cancels a command that reached Processing, after the delay, by probability or for the next N', async () => {
    const clock = new ManualClock();
    const sim = await startSim({
      clock,
      scenario: { faults: { cancelOnProcessing: { probability: 1, delayMs: 1000 } } },
    });
    const { id } = sim.createFiscalData();
    await call(sim, 'commands/update', { CommandId: id, State: 'Received' });
    expect(
      (await call(sim, 'commands/update', { CommandId: id, State: 'Processing', Progress: 0 })).status,
    ).toBe(200);
    await call(sim, 'commands/update', { CommandId: id, State: 'Processing', Progress: 0.5 });
    expect(sim.command(id)?.state).toBe('Processing');
    await clock.advance(1000);
    expect(sim.command(id)?.state).toBe('Cancelled');
    expect(sim.history(id).at(-1)).toMatchObject({ state: 'Cancelled', by: 'staff' });
    expect(
      (await call(sim, 'commands/update', { CommandId: id, State: 'Processed', Notes: 'x' })).status,
    ).toBe(400);
    expect(sim.counters().faults['cancel-on-processing']).toBe(1);

    sim.setFaults({ cancelOnProcessing: { probability: 0, next: 1, delayMs: 0 } });
    const counted = sim.createFiscalData();
    await call(sim, 'commands/update', { CommandId: counted.id, State: 'Processing', Progress: 0 });
    await clock.advance(0);
    expect(sim.command(counted.id)?.state).toBe('Cancelled');
    expect(sim.faults().cancelOnProcessing.next).toBe(0);
    const other = sim.createFiscalData();
    await call(sim, 'commands/update', { CommandId: other.id, State: 'Processing', Progress: 0 });
    await clock.advance(5000);
    expect(sim.command(other.id)?.state).toBe('Processing');
  });
});
