import { afterEach, describe, expect, it } from 'vitest';
import { IppPrinterDriver } from '../../../drivers/ipp-printer/driver.js';
import { type IppSimulator, startIppSimulator } from '../../../drivers/ipp-printer/simulator/index.js';
import { ManualClock } from '../../../src/clock.js';
import type { ExecuteContext } from '../../../src/drivers-api/types.js';
import type { Message } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { memoryStore, recordingExecuteContext, testDriverContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import { options, PRINTER, printJob, type Rig, rejection, rig } from './helpers.js';

const words = (text: Message) => english(text);

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

/** Runs `p` while moving the manual clock one poll at a time whenever the driver waits on it. */
/**
 * The checkpoint a run of cmd-1 leaves when it crashed while sending to PRINTER (phase `sending`,
 * one copy, printer up-time 0): what reconcile finds after a restart.
 */
function sendingCheckpoint(sim: IppSimulator) {
  return {
    v: 1,
    phase: 'sending',
    printer: PRINTER,
    uri: sim.printerUri(PRINTER),
    jobName: 'cmd-1',
    user: 'frontdesk-agent',
    copies: 1,
    upTime: 0,
  };
}

async function drive<T>(clock: ManualClock, p: Promise<T>, stepMs: number): Promise<T> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await eventually('the driver to wait or finish', () => done || clock.pending > 0);
    if (!done) await clock.advance(stepMs);
  }
  return p;
}

function crashDuringSend(ectx: ExecuteContext & { checkpoints: unknown[] }) {
  return ectx.checkpoints.at(-1);
}

describe('ipp-printer reconcile after a crash or a lost answer', () => {
  it('no checkpoint: not done; an unreadable one: unknown; a finished one: its result', async () => {
    r = await rig();
    const signal = new AbortController().signal;
    expect(await r.driver.reconcile(printJob(), signal)).toEqual({ outcome: 'not-done' });
    const corrupt = await r.driver.reconcile(
      printJob({}, { checkpoint: { v: 9, phase: 'sending' } }),
      signal,
    );
    expect(corrupt.outcome).toBe('unknown');
    const garbage = await r.driver.reconcile(printJob({}, { checkpoint: 'not an object' }), signal);
    expect(garbage.outcome).toBe('unknown');
    const result = { notes: 'Printed 1 copy of 1 page on X', details: { jobId: 4 } };
    const done = await r.driver.reconcile(
      printJob(
        {},
        {
          checkpoint: {
            v: 1,
            phase: 'done',
            printer: 'X',
            uri: 'ipp://127.0.0.1:1/x',
            jobName: 'cmd-1',
            user: 'u',
            copies: 1,
            result,
          },
        },
      ),
      signal,
    );
    expect(done).toEqual({ outcome: 'done', result });
    expect(r.sim.spooled()).toEqual([]);
  });

  it('a crash between Print-Job and its answer: the printer’s job list says done, nothing is sent twice', async () => {
    r = await rig();
    r.sim.holdAnswers(true);
    const ectx = recordingExecuteContext();
    const crashed = r.driver.execute(printJob({ copyCount: 2 }), ectx);
    crashed.catch(() => undefined);
    await r.sim.answerHeld();
    const checkpoint = crashDuringSend(ectx);
    expect(checkpoint).toMatchObject({ phase: 'sending', jobName: 'cmd-1' });
    // The agent restarts: a new driver, the answer never arrives.
    const ctx = testDriverContext({ store: memoryStore() });
    const again = new IppPrinterDriver(options(r.sim), ctx);
    try {
      const outcome = await again.reconcile(
        printJob({ copyCount: 2 }, { checkpoint }),
        new AbortController().signal,
      );
      expect(outcome.outcome).toBe('done');
      expect(outcome.outcome === 'done' && words(outcome.result.notes)).toBe(
        `Printed 2 copies of 1 page on ${PRINTER} (confirmed after a restart)`,
      );
      expect(r.sim.spooled()).toHaveLength(1);
    } finally {
      await again.close();
      r.sim.holdAnswers(false);
    }
  });

  it('a job accepted before the crash is followed by its id', async () => {
    r = await rig();
    const first = await r.driver.execute(printJob(), recordingExecuteContext());
    expect(first.details?.jobId).toBe(1);
    const checkpoint = {
      v: 1,
      phase: 'accepted',
      printer: PRINTER,
      uri: r.sim.printerUri(PRINTER),
      jobName: 'cmd-1',
      user: 'frontdesk-agent',
      copies: 1,
      jobId: 1,
    };
    const outcome = await r.driver.reconcile(printJob({}, { checkpoint }), new AbortController().signal);
    expect(outcome).toMatchObject({ outcome: 'done', result: { details: { jobId: 1 } } });
  });

  it('not in the job list while older jobs of ours still are: certainly not done', async () => {
    r = await rig();
    await r.driver.execute(printJob({}, { commandId: 'older' }), recordingExecuteContext());
    const checkpoint = sendingCheckpoint(r.sim);
    expect(await r.driver.reconcile(printJob({}, { checkpoint }), new AbortController().signal)).toEqual({
      outcome: 'not-done',
    });
    // Run again (attempt 2): the Get-Jobs check finds nothing, so it is sent once.
    await r.driver.execute(printJob({}, { checkpoint, attempt: 2 }), recordingExecuteContext());
    expect(r.sim.spooled().map((d) => d.jobName)).toEqual(['older', 'cmd-1']);
  });

  it('not in the job list and no history that old: unknown, never not-done', async () => {
    r = await rig();
    const checkpoint = sendingCheckpoint(r.sim);
    const outcome = await r.driver.reconcile(printJob({}, { checkpoint }), new AbortController().signal);
    expect(outcome.outcome).toBe('unknown');
    expect(outcome.outcome === 'unknown' && words(outcome.reason)).toBe(
      `${PRINTER} was sent the document but the printer no longer lists jobs that old`,
    );
    const noClock = await r.driver.reconcile(
      printJob({}, { checkpoint: { ...checkpoint, upTime: undefined } }),
      new AbortController().signal,
    );
    expect(noClock.outcome).toBe('unknown');
  });

  it('a printer that does not answer during reconcile rejects with a retryable error', async () => {
    r = await rig();
    const checkpoint = sendingCheckpoint(r.sim);
    await r.sim.setOffline(true);
    const error = await rejection(
      r.driver.reconcile(printJob({}, { checkpoint }), new AbortController().signal),
    );
    expect(error.code).toBe('DEVICE_UNAVAILABLE');
    expect(error.retryable).toBe(true);
  });

  it('a run with a checkpoint whose job did arrive follows that job instead of sending again', async () => {
    r = await rig();
    r.sim.dropNextAnswer();
    r.sim.setFault(PRINTER, 'neverComplete', false);
    const ectx = recordingExecuteContext();
    await r.driver.execute(printJob(), ectx);
    const sending = ectx.checkpoints[0];
    const result = await r.driver.execute(
      printJob({}, { checkpoint: sending, attempt: 2 }),
      recordingExecuteContext(),
    );
    expect(result.details?.jobId).toBe(1);
    expect(r.sim.spooled()).toHaveLength(1);
  });
});

describe('ipp-printer timeout policy (manual clock)', () => {
  it('a printer that never reports the end: Processed after jobTimeoutMs, saying so', async () => {
    const clock = new ManualClock();
    r = await rig({ clock, extra: { jobTimeoutMs: 120_000, pollIntervalMs: 1000 } });
    r.sim.setFault(PRINTER, 'neverComplete', true);
    const result = await drive(clock, r.driver.execute(printJob(), recordingExecuteContext()), 1000);
    expect(words(result.notes)).toBe(
      `Sent 1 copy to ${PRINTER} (job 1); the printer did not report it finished within 2 minutes — check the output tray`,
    );
    expect(result.details).toMatchObject({ unconfirmed: true });
  });

  it('out of paper for longer than jobTimeoutMs: Cancel-Job, and Error in words', async () => {
    const clock = new ManualClock();
    r = await rig({ clock, extra: { jobTimeoutMs: 60_000, pollIntervalMs: 1000 } });
    r.sim.holdAnswers(true);
    const ectx = recordingExecuteContext();
    const running = r.driver.execute(printJob(), ectx);
    await r.sim.answerHeld();
    r.sim.setFault(PRINTER, 'mediaEmpty', true);
    r.sim.holdAnswers(false);
    const error = await rejection(drive(clock, running, 1000));
    expect(error.code).toBe('PAPER_OUT');
    expect(words(error.notes)).toBe(
      `Not printed: ${PRINTER} is out of paper — load paper into the tray. The job waited 1 minute and was cancelled; nothing had printed; print it again once the printer is ready.`,
    );
    expect(r.sim.printer(PRINTER).jobs[0]?.state).toBe(7);
    expect(r.sim.printer(PRINTER).printed).toEqual([]);
  });

  it('a printer that goes away mid-job and comes back: the job is still followed to its end', async () => {
    r = await rig({ pageMs: 30 });
    const printer = r.sim.printer(PRINTER);
    r.sim.holdAnswers(true);
    const running = r.driver.execute(printJob(), recordingExecuteContext());
    await r.sim.answerHeld();
    r.sim.holdAnswers(false);
    await eventually('the job', () => printer.jobs[0] !== undefined);
    await r.sim.setOffline(true);
    // Back once the driver has met the outage (its status says so), not after some milliseconds.
    await eventually('the driver to see the printer away', () => r?.driver.status().connected === false);
    await r.sim.setOffline(false);
    expect(words((await running).notes)).toBe(`Printed 1 copy of 1 page on ${PRINTER}`);
    expect(r.sim.spooled()).toHaveLength(1);
  });

  it('a printer away at the start is waited for up to offlineWaitMs', async () => {
    const clock = new ManualClock();
    r = await rig({ clock, extra: { offlineWaitMs: 30_000, statusRetryMs: 5000 } });
    await r.sim.setOffline(true);
    const running = r.driver.execute(printJob(), recordingExecuteContext());
    await eventually('the driver to wait for the printer', () => clock.pending > 0);
    await clock.advance(5000);
    await eventually('the second wait', () => clock.pending > 0);
    await r.sim.setOffline(false);
    const result = await drive(clock, running, 5000);
    expect(words(result.notes)).toBe(`Printed 1 copy of 1 page on ${PRINTER}`);
  });

  it('gives up after offlineWaitMs with nothing sent', async () => {
    const clock = new ManualClock();
    r = await rig({ clock, extra: { offlineWaitMs: 10_000, statusRetryMs: 5000 } });
    await r.sim.setOffline(true);
    const error = await rejection(
      drive(clock, r.driver.execute(printJob(), recordingExecuteContext()), 5000),
    );
    expect(error.code).toBe('DEVICE_UNAVAILABLE');
    expect(error.details.nothingSent).toBe(true);
  });
});

describe('the IPP printer simulator on its own', () => {
  it('drops finished jobs from its list after historyMs, oldest first', async () => {
    const clock = new ManualClock();
    const sim = await startIppSimulator({ clock, printers: [{ name: 'P', pageMs: 0, historyMs: 60_000 }] });
    try {
      const printer = sim.printer('P');
      printer.accept(
        { name: 'a', user: 'u', format: 'application/pdf', copies: 1 },
        Buffer.from('%PDF-1.4 /Type /Page'),
      );
      await eventually('the job to finish', async () => {
        await clock.advance(0);
        return printer.jobs[0]?.state === 9;
      });
      expect(printer.listed()).toHaveLength(1);
      await clock.advance(61_000);
      expect(printer.listed()).toEqual([]);
    } finally {
      await sim.close();
    }
  });
});
