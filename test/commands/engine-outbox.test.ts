import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors.js';
import { textMessage } from '../../src/messages/message.js';
import { wireFiscalCommand, wireKeyCommand, wirePrinterCommand } from './helpers/commands.js';
import { harness } from './helpers/harness.js';
import { takes } from './helpers/scripted-driver.js';

const unreachable = () => new AgentError('PLATFORM_UNREACHABLE', 'connect ECONNREFUSED');

describe('engine: delivering updates through outages', () => {
  it('queues updates while the platform refuses them, then delivers each command’s in order', async () => {
    const h = harness();
    let down = true;
    h.platform.fault.updateCommand = () => (down ? unreachable() : undefined);
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.platform.add({ wire: wirePrinterCommand({ id: 'p1' }) });
    h.platform.add({ fiscalWire: wireFiscalCommand({ id: 'f1' }) });
    h.drivers.keys.next(async (_job, ctx) => {
      for (let i = 1; i <= 5; i++) {
        await h.clock.sleep(1000, ctx.signal);
        ctx.progress(i / 5);
      }
      return { notes: textMessage('keys') };
    });
    await h.engine.start();
    await h.until(
      () => ['k1', 'p1', 'f1'].every((id) => h.journal.get(id)?.phase === 'finished'),
      'all finished',
    );
    await h.advance(60_000, 1000);
    expect(h.platform.updates).toHaveLength(0);
    const attempts = h.platform.countOf('updateCommand');
    // One probe per pause (exponential, capped at 60 s), not one per update.
    expect(attempts).toBeLessThan(12);
    expect(h.engine.outboxState().pending).toBeGreaterThanOrEqual(9);
    expect(h.engine.outboxState().oldestAt).toBe(h.journal.get('k1')?.seenAt);
    expect(h.engine.platformActivity()).toMatchObject({ lastError: { code: 'PLATFORM_UNREACHABLE' } });

    down = false;
    await h.until(() => h.engine.outboxState().pending === 0, 'outbox drained', 120_000, 1000);
    for (const id of ['p1', 'f1'])
      expect(h.platform.historyOf(id)).toEqual(['Received', 'Processing:0', 'Processed']);
    // Progress that was never sent is superseded by the result.
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processed']);
    expect(
      h.platform.updates.filter((u) => u.State === 'Processed').every((u) => u.priority === 'result'),
    ).toBe(true);
    expect(['k1', 'p1', 'f1'].map((id) => h.journal.get(id)?.phase)).toEqual(['closed', 'closed', 'closed']);
    await h.engine.stop(1000);
  });

  it('resumes delivery as soon as discovery gets answers again after a whole-platform outage', async () => {
    const h = harness();
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    let down = false;
    for (const op of ['activeCommands', 'commandsByIds', 'fiscalCommands', 'updateCommand'] as const) {
      h.platform.fault[op] = () => (down ? unreachable() : undefined);
    }
    h.drivers.keys.next(async () => {
      down = true;
      return { notes: textMessage('written during the outage') };
    });
    await h.engine.start();
    await h.until(() => h.journal.get('k1')?.phase === 'finished', 'k1 finished');
    await h.advance(50_000, 1000);
    expect(h.engine.platformActivity().outboxPausedUntil).toBeGreaterThan(h.clock.now() + 5000);
    down = false;
    const back = h.clock.now();
    await h.until(() => h.platform.state('k1') === 'Processed', 'k1 delivered', 120_000, 250);
    // The next discovery poll (every 2 s) lifts the backoff pause.
    expect(h.clock.now() - back).toBeLessThanOrEqual(2500);
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processed']);
    await h.engine.stop(1000);
  });

  it('starts nothing while the platform cannot be reached to re-read, and catches up afterwards', async () => {
    const h = harness({ tuning: { rereadRetryBaseMs: 1000, rereadRetryMaxMs: 8000 } });
    h.platform.add({ wire: wireKeyCommand({ id: 'k0' }) });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1', createdUtc: '2026-01-01T00:00:05Z' }) });
    // k0 starts on what discovery just saw and keeps the encoder 5 s: by then k1 needs a read.
    h.drivers.keys.next(takes(h.clock, 5000));
    // Discovery got through once; then the platform went away.
    let down = false;
    for (const op of ['commandsByIds', 'updateCommand', 'activeCommands'] as const) {
      h.platform.fault[op] = () => (down ? unreachable() : undefined);
    }
    let firstDiscovery = true;
    h.platform.fault.activeCommands = () => {
      if (firstDiscovery) {
        firstDiscovery = false;
        down = true;
        return undefined;
      }
      return down ? unreachable() : undefined;
    };
    await h.engine.start();
    await h.advance(30_000, 500);
    expect(h.journal.get('k1')?.phase).toBe('starting');
    expect(h.drivers.keys.executed.map((j) => j.commandId)).toEqual(['k0']);
    down = false;
    await h.until(() => h.platform.state('k1') === 'Processed', 'k1 processed');
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processed']);
    expect(h.platform.historyOf('k0')).toEqual(['Received', 'Processing:0', 'Processed']);
    expect(h.drivers.keys.executed.map((j) => j.commandId)).toEqual(['k0', 'k1']);
    await h.engine.stop(1000);
  });

  it('pauses for minutes after PLATFORM_AUTH, keeping every update', async () => {
    const h = harness({ tuning: { outbox: { authPauseMs: 300_000 } } });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    let refused = true;
    h.platform.fault.updateCommand = () =>
      refused ? new AgentError('PLATFORM_AUTH', 'Unauthorized') : undefined;
    h.drivers.keys.next(takes(h.clock, 1000));
    await h.engine.start();
    await h.until(() => h.journal.get('k1')?.phase === 'finished', 'k1 finished');
    const before = h.platform.countOf('updateCommand');
    refused = false;
    await h.advance(240_000, 5000);
    expect(h.platform.countOf('updateCommand')).toBe(before);
    expect(h.engine.platformActivity()).toMatchObject({ authRejected: true });
    await h.until(() => h.platform.state('k1') === 'Processed', 'k1 delivered', 120_000, 5000);
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processed']);
    await h.engine.stop(1000);
  });

  it('drops an update the platform can never take (REQUEST_INVALID) and goes on with the next', async () => {
    const h = harness();
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.platform.fault.updateCommand = (r) =>
      r.update?.State === 'Processing'
        ? new AgentError('REQUEST_INVALID', 'Progress out of range')
        : undefined;
    await h.engine.start();
    await h.until(() => h.journal.get('k1')?.phase === 'closed', 'k1 closed');
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processed']);
    expect(h.log.lines.some((l) => l.includes('can never be sent'))).toBe(true);
    await h.engine.stop(1000);
  });
  it('on a 403 for a command still ours drops only that update; on a 409 re-reads and sends it again', async () => {
    const h = harness();
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    h.platform.add({ wire: wirePrinterCommand({ id: 'p1' }) });
    let conflicts = 1;
    h.platform.fault.updateCommand = (r) => {
      if (r.update?.CommandId === 'k1' && r.update.State === 'Processing') {
        return new AgentError('PLATFORM_FORBIDDEN', 'Device is not assigned to this integration');
      }
      if (r.update?.CommandId === 'p1' && r.update.State === 'Processed' && conflicts-- > 0) {
        return new AgentError('PLATFORM_CONFLICT', 'The command was changed meanwhile');
      }
      return undefined;
    };
    await h.engine.start();
    await h.until(
      () => h.journal.get('k1')?.phase === 'closed' && h.journal.get('p1')?.phase === 'closed',
      'both closed',
    );
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processed']);
    expect(h.platform.historyOf('p1')).toEqual(['Received', 'Processing:0', 'Processed']);
    const rereads = h.platform.requests.filter(
      (r) => r.operation === 'commandsByIds' && r.priority === 'normal',
    );
    // Not before start (discovery had just seen both); k1 after the 403; p1 after its 409, which
    // finds it Processing (not listed).
    expect(rereads.map((r) => r.ids)).toEqual(expect.arrayContaining([['k1'], ['p1']]));
    expect(rereads.length).toBe(2);
    expect(
      h.log.lines.some((l) => l.includes('still ours; this update is dropped') && l.includes('k1')),
    ).toBe(true);
    await h.engine.stop(1000);
  });
});
