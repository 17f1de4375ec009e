import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simEncoderFactory, simFiscalFactory } from '../../../drivers/stand-ins/index.js';
import { ManualClock } from '../../../src/clock.js';
import type { CommandData } from '../../../src/connector/model.js';
import { AgentError } from '../../../src/errors.js';
import { readMessage } from '../../../src/messages/message.js';
import { english, messageRenderer } from '../../../src/messages/render.js';
import {
  jobFor,
  memoryStore,
  recordingExecuteContext,
  testDriverContext,
} from '../../helpers/driver-context.js';

const fast = { durationMs: 0, jitterMs: 0 };

function keys(keyCount: number, sim?: Record<string, unknown>): CommandData {
  return {
    kind: 'keys',
    keys: {
      keyCount,
      lockIds: ['101'],
      startUtc: '2026-11-21T14:00:00Z',
      endUtc: '2026-11-23T10:00:00Z',
      guest: { lastName: 'Rossi' },
      settings: { value: sim ? { sim } : {} },
    },
  };
}

function payload(base64: string, sim?: Record<string, unknown>): CommandData {
  return {
    kind: 'fiscal',
    fiscal: {
      machineSettings: { value: sim ? { sim } : {} },
      bill: { id: 'bill-1' },
      document: { type: 'payload', base64 },
    },
  };
}

describe('sim-encoder', () => {
  it('cuts every card with a milestone each and says so in the notes', async () => {
    const driver = simEncoderFactory.create(simEncoderFactory.configSchema.parse(fast), testDriverContext());
    await driver.open(new AbortController().signal);
    const ctx = recordingExecuteContext();
    const result = await driver.execute(jobFor(keys(3)), ctx);
    expect(english(readMessage(result.notes))).toBe('3 keys for room 101');
    expect(messageRenderer('it').render(readMessage(result.notes))).toBe('3 chiavi per la camera 101');
    expect(ctx.progressSeen).toEqual([
      { fraction: 1 / 3, milestone: true },
      { fraction: 2 / 3, milestone: true },
      { fraction: 1, milestone: true },
    ]);
    expect(driver.status().facts.cardsCut).toBe(3);
  });

  it('fails at the scripted card with the scripted code', async () => {
    const driver = simEncoderFactory.create(simEncoderFactory.configSchema.parse(fast), testDriverContext());
    const error = await driver
      .execute(jobFor(keys(3, { outcome: 'NO_CARD', failAtCard: 2 })), recordingExecuteContext())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('NO_CARD');
    expect((error as AgentError).details.cardsCut).toBe(1);
  });

  it('after a crash reports the cards already cut instead of cutting again', async () => {
    const store = memoryStore();
    const options = simEncoderFactory.configSchema.parse(fast);
    const first = simEncoderFactory.create(options, testDriverContext({ store }));
    await first
      .execute(jobFor(keys(3, { outcome: 'DEVICE_UNAVAILABLE', failAtCard: 3 })), recordingExecuteContext())
      .catch(() => undefined);
    const restarted = simEncoderFactory.create(options, testDriverContext({ store }));
    const verdict = await restarted.reconcile(jobFor(keys(3)), new AbortController().signal);
    expect(verdict.outcome).toBe('failed');
    if (verdict.outcome === 'failed') expect(english(verdict.error.notes)).toContain('2 of 3 keys were cut');
  });

  it('stops between cards when cancelled', async () => {
    const clock = new ManualClock();
    const driver = simEncoderFactory.create(
      simEncoderFactory.configSchema.parse({ durationMs: 30, jitterMs: 0 }),
      testDriverContext({ clock }),
    );
    const abort = new AbortController();
    const ctx = recordingExecuteContext(abort.signal);
    const running = driver.execute(jobFor(keys(3)), ctx);
    // Half way through the second of three 10 ms cards, on the driver's clock.
    await clock.advance(15);
    abort.abort();
    await expect(running).rejects.toMatchObject({ code: 'ABORTED' });
    expect(ctx.progressSeen.length).toBeLessThan(3);
  });
});

describe('sim-fiscal', () => {
  it('prints a valid payload once and remembers it in its ledger file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fiscal-'));
    const ledgerPath = join(dir, 'ledger.jsonl');
    const options = simFiscalFactory.configSchema.parse({ ...fast, ledgerPath });
    const driver = simFiscalFactory.create(options, testDriverContext());
    const job = jobFor(payload(Buffer.from('<printerFiscalReceipt/>').toString('base64')));
    const result = await driver.execute(job, recordingExecuteContext());
    expect(english(readMessage(result.notes))).toMatch(/^Receipt 0001-0001 on RT 99SIM/);
    expect(messageRenderer('it').render(readMessage(result.notes))).toMatch(
      /^Scontrino 0001-0001 su RT 99SIM\w+$/,
    );
    const lines = readFileSync(ledgerPath, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const restarted = simFiscalFactory.create(options, testDriverContext());
    const verdict = await restarted.reconcile(job, new AbortController().signal);
    expect(verdict).toMatchObject({ outcome: 'done', result: { notes: result.notes } });
  });

  it('refuses bad Base64 before printing anything', async () => {
    const driver = simFiscalFactory.create(simFiscalFactory.configSchema.parse(fast), testDriverContext());
    await expect(
      driver.execute(jobFor(payload('%%not base64%%')), recordingExecuteContext()),
    ).rejects.toMatchObject({
      code: 'COMMAND_INVALID',
    });
    expect(driver.status().facts.printed).toBe(0);
  });

  it('unknown when its checkpoint cannot be read, or names a receipt its memory does not hold', async () => {
    const driver = simFiscalFactory.create(simFiscalFactory.configSchema.parse(fast), testDriverContext());
    const signal = new AbortController().signal;
    const printing = await driver.reconcile(
      jobFor(payload('AAAA'), { checkpoint: { phase: 'printing' } }),
      signal,
    );
    expect(printing.outcome).toBe('not-done');
    for (const checkpoint of [{ phase: 'printed', receipt: '0001-0001' }, { phase: 'sent' }, null]) {
      const verdict = await driver.reconcile(jobFor(payload('AAAA'), { checkpoint }), signal);
      if (verdict.outcome !== 'unknown') throw new Error(`expected unknown, got ${verdict.outcome}`);
      expect(english(verdict.reason)).toMatch(/last receipt/);
    }
  });

  it('fails as scripted by the command, without printing', async () => {
    const driver = simFiscalFactory.create(simFiscalFactory.configSchema.parse(fast), testDriverContext());
    await expect(
      driver.execute(jobFor(payload('AAAA', { outcome: 'PAPER_OUT' })), recordingExecuteContext()),
    ).rejects.toMatchObject({ code: 'PAPER_OUT' });
    expect(driver.status().facts.printed).toBe(0);
  });
});
