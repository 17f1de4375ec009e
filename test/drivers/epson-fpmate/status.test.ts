import { afterEach, describe, expect, it } from 'vitest';
import { parseExpiry, StatusBoard } from '../../../drivers/epson-fpmate/status.js';
import type { FpmateResponse } from '../../../drivers/epson-fpmate/xml-response.js';
import { ManualClock } from '../../../src/clock.js';
import { AgentError } from '../../../src/errors.js';
import { eventually } from '../../helpers/eventually.js';
import { inWords, type Rig, rig } from './helpers.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0);

const answer = (addInfo: Record<string, string>): FpmateResponse => ({
  success: true,
  code: '',
  status: '2',
  addInfo,
});

describe('the status board', () => {
  it('starts out saying what it waits for', () => {
    expect(inWords(new StatusBoard(new ManualClock(NOW), () => undefined).snapshot())).toMatchObject({
      connected: false,
      summary: 'waiting for the first command to learn the printer’s address',
      warnings: [],
    });
    expect(inWords(new StatusBoard(new ManualClock(NOW), () => 'http://10.0.0.5').snapshot()).summary).toBe(
      'not contacted yet',
    );
  });

  it('turns an RT status answer into facts and warnings staff can act on', () => {
    const board = new StatusBoard(new ManualClock(NOW), () => 'http://10.0.0.5');
    board.answered(
      answer({
        printerStatus: '21110',
        rtDailyOpen: '1',
        rtFileToSend: '2',
        rtOldFileToSend: '1',
        rtFileRejected: '3',
        rtExpiryCD: '20261201',
        rtExpiryCA: '20300101',
        rtTrainingMode: '1',
      }),
    );
    board.noteSerial('99MEY123456');
    board.noteReceipt('0003-0012');
    const status = inWords(board.snapshot());
    expect(status).toMatchObject({ connected: true, summary: 'ready, paper low', lastContact: NOW });
    expect(status.facts).toMatchObject({
      address: 'http://10.0.0.5',
      serial: '99MEY123456',
      lastReceipt: '0003-0012',
      paper: 'low',
      cover: 'closed',
      electronicJournal: 'nearly full',
      fiscalDayOpen: true,
      filesToSend: 2,
      oldFilesToSend: 1,
      filesRejected: 3,
      // ISO dates, which /metrics exports as Unix seconds (generic device facts).
      certificateExpiryDevice: '2026-12-01',
      certificateExpiryTaxAgency: '2030-01-01',
      trainingMode: true,
    });
    expect(status.warnings).toEqual([
      'Paper is running low: have a new roll ready.',
      'The electronic journal is nearly full: call the printer’s technician.',
      '3 daily files rejected by the tax agency: call the technician.',
      '1 old daily file not yet sent to the tax agency: check the printer’s network.',
      'The printer is in training mode: its receipts are not fiscal.',
      'The RT device certificate expires on 1 Dec 2026: call the technician.',
    ]);
  });

  it('reports an off-line printer, an unreachable one, and what a failed job taught', () => {
    const board = new StatusBoard(new ManualClock(NOW), () => 'http://10.0.0.5');
    board.answered(answer({ fpStatus: '30110', rtDailyOpen: '1' }));
    expect(inWords(board.snapshot()).summary).toBe('off line: cover open or paper out');
    board.noteJobError(new AgentError('DEVICE_ERROR', 'x', { details: { printerStatusCode: '17' } }));
    expect(inWords(board.snapshot()).warnings).toContain(
      'The printer refused the last receipt as not possible now (status 17): look at its display.',
    );
    board.noteJobError(
      new AgentError('DEVICE_ERROR', 'x', { details: { printerStatusCode: '17', closureDue: true } }),
    );
    expect(inWords(board.snapshot()).warnings).toContain(
      'The printer refuses receipts until the daily closure (Z report) is run: use Print Z report, or run it on the printer.',
    );
    board.answered(answer({ printerStatus: '00110', rtDailyOpen: '0' }));
    expect(inWords(board.snapshot()).warnings).toEqual([]);
    board.unreachable('no answer');
    expect(inWords(board.snapshot())).toMatchObject({
      connected: false,
      summary: 'unreachable (no answer) — check power and network',
    });
  });

  it('reads certificate expiries in the formats printers use', () => {
    expect(parseExpiry('20261201')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(parseExpiry('01122026')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(parseExpiry('011226')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(parseExpiry('2026-12-01')?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(parseExpiry('20')).toBeUndefined();
    expect(parseExpiry('20261399')).toBeUndefined();
  });
});

describe('background status polling', () => {
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.close();
    r = undefined;
  });

  it('polls at the configured interval, faster while the printer is unreachable', async () => {
    const clock = new ManualClock(NOW);
    r = await rig({ clock, driver: { statusIntervalMs: 60_000, statusRetryMs: 5_000 } });
    await r.driver.open(new AbortController().signal);
    const polls = () => r?.sim.requests.filter((q) => q === 'printerCommand').length ?? 0;
    const afterOpen = polls();
    await r.sim.setFault('rtFiles', { rejected: 2 });
    await eventually('the poller parked on the clock', () => clock.pending === 1);
    await clock.advance(59_000);
    expect(polls()).toBe(afterOpen);
    await clock.advance(1_000);
    await eventually('the poll to read 2 rejected files', () => r?.driver.status().facts.filesRejected === 2);
    await r.sim.setFault('refused', true);
    await eventually('the poller parked on the clock', () => clock.pending === 1);
    await clock.advance(60_000);
    await eventually('the printer shown unreachable', () => r?.driver.status().connected === false);
    await r.sim.setFault('refused', false);
    await eventually('the poller parked on the clock', () => clock.pending === 1);
    await clock.advance(5_000);
    await eventually('the printer shown reachable again', () => r?.driver.status().connected === true);
  });

  it('opening an unreachable printer rejects with DEVICE_UNAVAILABLE', async () => {
    r = await rig();
    await r.sim.setFault('refused', true);
    const error = await r.driver.open(new AbortController().signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).code).toBe('DEVICE_UNAVAILABLE');
    await r.sim.setFault('refused', false);
  });
});
