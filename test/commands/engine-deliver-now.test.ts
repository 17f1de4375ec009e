import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors.js';
import { wireKeyCommand } from './helpers/commands.js';
import { harness } from './helpers/harness.js';
import { takes } from './helpers/scripted-driver.js';

/**
 * The outbox says why it waits (`outboxState().trouble`: since when every delivery fails, the
 * last code, refused or outage, the next try), and staff's "try delivery now"
 * (`Engine.deliverNow`) ends a pause after failures at once instead of at its end.
 */

describe('engine: why the outbox waits, and trying delivery now', () => {
  it('ends the long pause after a refused token as soon as staff ask, and forgets the trouble once delivered', async () => {
    const h = harness({ tuning: { outbox: { authPauseMs: 300_000 } } });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    let refused = true;
    let firstRefusalAt: number | undefined;
    h.platform.fault.updateCommand = () => {
      if (!refused) return undefined;
      firstRefusalAt ??= h.clock.now();
      return new AgentError('PLATFORM_AUTH', 'Unauthorized');
    };
    h.drivers.keys.next(takes(h.clock, 1000));
    await h.engine.start();
    await h.until(() => h.journal.get('k1')?.phase === 'finished', 'k1 finished');
    await h.advance(10_000, 1000);
    const state = h.engine.outboxState();
    expect(state.pending).toBeGreaterThan(0);
    expect(state.trouble).toMatchObject({ code: 'PLATFORM_AUTH', reason: 'refused', since: firstRefusalAt });
    expect(state.trouble?.until).toBeGreaterThan(h.clock.now() + 200_000);

    refused = false;
    const sent = h.platform.countOf('updateCommand');
    await h.advance(30_000, 5000);
    // Still paused: nothing went while the pause runs.
    expect(h.platform.countOf('updateCommand')).toBe(sent);
    const asked = h.clock.now();
    expect(h.engine.deliverNow()).toEqual({ pending: state.pending, lifted: true });
    await h.until(() => h.platform.state('k1') === 'Processed', 'k1 delivered', 10_000, 50);
    // Delivered because staff asked, not because the 5-minute pause ran out.
    expect(h.clock.now() - asked).toBeLessThan(1000);
    expect(h.platform.historyOf('k1')).toEqual(['Received', 'Processing:0', 'Processed']);
    await h.until(() => h.engine.outboxState().pending === 0, 'outbox empty');
    expect(h.engine.outboxState().trouble).toBeUndefined();
    expect(h.engine.deliverNow()).toEqual({ pending: 0, lifted: false });
    await h.engine.stop(1000);
  });

  it('names an outage since its first failure, and keeps the backoff level after a failed try now', async () => {
    const h = harness({ tuning: { outbox: { backoffBaseMs: 1000, backoffMaxMs: 60_000 } } });
    h.platform.add({ wire: wireKeyCommand({ id: 'k1' }) });
    let firstFailureAt: number | undefined;
    let down = true;
    h.platform.fault.updateCommand = () => {
      if (!down) return undefined;
      firstFailureAt ??= h.clock.now();
      return new AgentError('PLATFORM_UNREACHABLE', 'connect ECONNREFUSED');
    };
    h.drivers.keys.next(takes(h.clock, 1000));
    await h.engine.start();
    await h.advance(40_000, 500);
    const trouble = h.engine.outboxState().trouble;
    expect(trouble).toMatchObject({ code: 'PLATFORM_UNREACHABLE', reason: 'outage', since: firstFailureAt });
    const before = h.platform.countOf('updateCommand');
    const paused = trouble?.until;
    expect(paused).toBeGreaterThan(h.clock.now());
    expect(h.engine.deliverNow().lifted).toBe(true);
    await h.until(() => h.platform.countOf('updateCommand') > before, 'the try now', 1000, 10);
    await h.advance(0);
    // The try failed too: the trouble keeps its start, and the next pause is no shorter.
    const after = h.engine.outboxState().trouble;
    expect(after?.since).toBe(firstFailureAt);
    expect((after?.until ?? 0) - h.clock.now()).toBeGreaterThanOrEqual((paused ?? 0) - h.clock.now() - 1000);
    down = false;
    await h.until(() => h.engine.outboxState().pending === 0, 'outbox drained', 120_000, 1000);
    await h.engine.stop(1000);
  });
});
