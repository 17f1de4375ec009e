import { afterEach, describe, expect, it } from 'vitest';
import { ippMessages } from '../../../drivers/ipp-printer/messages.js';
import type { Message } from '../../../src/messages/message.js';
import { english } from '../../../src/messages/render.js';
import { recordingExecuteContext } from '../../helpers/driver-context.js';
import { eventually } from '../../helpers/eventually.js';
import { PRINTER, pdfBase64, printJob, type Rig, rejection, rig } from './helpers.js';

const words = (text: Message) => english(text);

let r: Rig | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe('ipp-printer driver against the IPP printer simulator', () => {
  it('opens idempotently and shows the printer as ready', async () => {
    r = await rig();
    expect(r.driver.status()).toMatchObject({ connected: false, summary: ippMessages.notContacted() });
    await r.driver.open(new AbortController().signal);
    await r.driver.open(new AbortController().signal);
    const status = r.driver.status();
    expect(status.connected).toBe(true);
    expect(words(status.summary)).toBe('ready (idle, 0 jobs queued)');
    expect(words(status.facts[`printerState:${PRINTER}`] as Message)).toBe('idle, 0 jobs queued');
    expect(status.warnings.map(words)).toEqual([]);
  });

  it('prints copies with job-name = command id and the configured user, and says what came out', async () => {
    r = await rig();
    const ectx = recordingExecuteContext();
    const result = await r.driver.execute(printJob({ copyCount: 2, fileData: pdfBase64(['Card'], 3) }), ectx);
    expect(words(result.notes)).toBe(`Printed 2 copies of 3 pages on ${PRINTER}`);
    expect(result.details).toMatchObject({ jobId: 1, copies: 2, pages: 3, impressionsCompleted: 6 });
    expect(r.sim.spooled()).toMatchObject([
      { jobName: 'cmd-1', user: 'frontdesk-agent', copies: 2, pages: 3, format: 'application/pdf' },
    ]);
    expect(ectx.checkpoints).toMatchObject([
      { v: 1, phase: 'sending', jobName: 'cmd-1', user: 'frontdesk-agent', copies: 2, upTime: 0 },
      { phase: 'accepted', jobId: 1 },
      { phase: 'done', result: { notes: result.notes } },
    ]);
    const fractions = ectx.progressSeen.map((p) => p.fraction);
    expect(fractions.slice(0, 2)).toEqual([0.1, 0.3]);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    expect(fractions.every((f) => f <= 1)).toBe(true);
    expect(words(r.driver.status().facts['last job'] as Message)).toBe(
      `job 1 on ${PRINTER}: ${words(result.notes)}`,
    );
  });

  it('refuses a file type the printer does not take, before sending anything', async () => {
    r = await rig({ formats: ['application/pdf'] });
    const ectx = recordingExecuteContext();
    const error = await rejection(
      r.driver.execute(
        printJob({
          fileType: 'image/png',
          fileData: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2]).toString('base64'),
        }),
        ectx,
      ),
    );
    expect(error.code).toBe('COMMAND_INVALID');
    expect(words(error.notes)).toBe(
      `${PRINTER} cannot print PNG image documents (it takes application/pdf); nothing was printed.`,
    );
    expect(ectx.checkpoints).toEqual([]);
    expect(r.sim.spooled()).toEqual([]);
  });

  it('refuses 0 and absurd copy counts, and more copies than the printer makes', async () => {
    r = await rig({ extra: { maxCopies: 50 } });
    const zero = await rejection(r.driver.execute(printJob({ copyCount: 0 }), recordingExecuteContext()));
    expect(words(zero.notes)).toBe(
      'The command asks for 0 copies; nothing was printed. Print again with at least 1 copy.',
    );
    const huge = await rejection(r.driver.execute(printJob({ copyCount: 5000 }), recordingExecuteContext()));
    expect(words(huge.notes)).toBe(
      'The command asks for 5000 copies, more than the 50 the agent prints at once; nothing was printed.',
    );
    await r.close();
    r = await rig({ copiesMax: 1 });
    const single = await rejection(r.driver.execute(printJob({ copyCount: 2 }), recordingExecuteContext()));
    expect(words(single.notes)).toBe(
      `${PRINTER} prints at most 1 copy of a document at once; the command asks for 2. Nothing was printed.`,
    );
    expect(r.sim.spooled()).toEqual([]);
  });

  it('ends an unknown printer name in Error naming the printers it knows', async () => {
    r = await rig();
    const error = await rejection(
      r.driver.execute(printJob({ printerName: 'Bar Inkjet' }), recordingExecuteContext()),
    );
    expect(error.code).toBe('COMMAND_INVALID');
    expect(words(error.notes)).toBe(
      `The agent does not know the printer “Bar Inkjet”; nothing was printed. Printers it knows: ${PRINTER}. Choose one of them, or ask IT to add this printer to the agent’s configuration.`,
    );
  });

  it('prints on the configured printer when the name differs only in case, or is empty', async () => {
    r = await rig();
    await r.driver.execute(printJob({ printerName: 'reception laser' }), recordingExecuteContext());
    await r.driver.execute(printJob({ printerName: '' }, { commandId: 'cmd-2' }), recordingExecuteContext());
    expect(r.sim.spooled().map((d) => d.jobName)).toEqual(['cmd-1', 'cmd-2']);
  });

  it('refuses while out of paper, says so in words, and sends nothing', async () => {
    r = await rig();
    r.sim.setFault(PRINTER, 'mediaEmpty', true);
    const ectx = recordingExecuteContext();
    const error = await rejection(r.driver.execute(printJob(), ectx));
    expect(error.code).toBe('PAPER_OUT');
    expect(words(error.notes)).toBe(
      `${PRINTER} is out of paper — load paper into the tray; nothing was printed. Print again once it is fixed.`,
    );
    expect(error.details.nothingSent).toBe(true);
    expect(ectx.checkpoints).toEqual([]);
    const status = r.driver.status();
    expect(status.warnings.map(words)).toEqual([`${PRINTER} is out of paper — load paper into the tray.`]);
    expect(words(status.summary)).toBe(`${PRINTER} is out of paper — load paper into the tray`);
    expect(r.sim.spooled()).toEqual([]);
  });

  it('a job waiting for paper prints once paper is loaded', async () => {
    r = await rig({ pageMs: 20 });
    const printer = r.sim.printer(PRINTER);
    const ectx = recordingExecuteContext();
    const running = r.driver.execute(printJob({ fileData: pdfBase64(['x'], 4) }), ectx);
    await eventually('the first page', () => printer.jobs[0]?.impressionsCompleted === 1);
    r.sim.setFault(PRINTER, 'mediaEmpty', true);
    await eventually('the paper warning', () => r?.driver.status().warnings.length === 1);
    expect(r.driver.status().warnings.map(words)).toEqual([
      `${PRINTER} is out of paper — load paper into the tray.`,
    ]);
    r.sim.setFault(PRINTER, 'mediaEmpty', false);
    expect(words((await running).notes)).toBe(`Printed 1 copy of 4 pages on ${PRINTER}`);
    expect(r.sim.spooled()).toHaveLength(1);
  });

  it('turns a platform cancellation into Cancel-Job and says what had printed', async () => {
    r = await rig({ pageMs: 40 });
    const printer = r.sim.printer(PRINTER);
    const controller = new AbortController();
    const ectx = recordingExecuteContext(controller.signal);
    const running = rejection(r.driver.execute(printJob({ fileData: pdfBase64(['x'], 50) }), ectx));
    await eventually('two pages', () => (printer.jobs[0]?.impressionsCompleted ?? 0) >= 2);
    controller.abort();
    const error = await running;
    expect(error.code).toBe('ABORTED');
    expect(words(error.notes)).toMatch(
      new RegExp(`^Cancelled on ${PRINTER} \\(job 1\\); \\d+ of 50 pages had printed\\.$`),
    );
    expect(printer.jobs[0]?.state).toBe(7);
    expect(r.sim.spooled()).toHaveLength(1);
  });

  it('a job that already finished when cancelled reports its real outcome', async () => {
    r = await rig();
    const controller = new AbortController();
    const ectx = recordingExecuteContext(controller.signal);
    const printer = r.sim.printer(PRINTER);
    r.sim.holdAnswers(true);
    const running = r.driver.execute(printJob(), ectx);
    await r.sim.answerHeld();
    await eventually('the job to complete', () => printer.jobs[0]?.state === 9);
    controller.abort();
    r.sim.holdAnswers(false);
    expect(words((await running).notes)).toBe(`Printed 1 copy of 1 page on ${PRINTER}`);
  });

  it('after a lost Print-Job answer, finds its job by name and does not send it again', async () => {
    r = await rig();
    r.sim.dropNextAnswer();
    const ectx = recordingExecuteContext();
    const result = await r.driver.execute(printJob(), ectx);
    expect(words(result.notes)).toBe(`Printed 1 copy of 1 page on ${PRINTER}`);
    expect(r.sim.spooled()).toHaveLength(1);
    expect(ectx.checkpoints).toMatchObject([
      { phase: 'sending' },
      { phase: 'accepted', jobId: 1 },
      { phase: 'done' },
    ]);
  });

  it('an unreachable printer rejects open and a job with nothing sent', async () => {
    r = await rig();
    await r.sim.setOffline(true);
    const open = await rejection(r.driver.open(new AbortController().signal));
    expect(open.code).toBe('DEVICE_UNAVAILABLE');
    const error = await rejection(r.driver.execute(printJob(), recordingExecuteContext()));
    expect(error.code).toBe('DEVICE_UNAVAILABLE');
    expect(error.details.nothingSent).toBe(true);
    expect(words(error.notes)).toBe(
      `${PRINTER} does not answer; nothing was printed. Check that it is switched on and connected.`,
    );
    expect(r.driver.status()).toMatchObject({ connected: false });
    await r.sim.setOffline(false);
    await r.driver.open(new AbortController().signal);
    expect(words((await r.driver.execute(printJob(), recordingExecuteContext())).notes)).toMatch(/^Printed/);
  });

  it('closes idempotently and opens again', async () => {
    r = await rig();
    await r.driver.open(new AbortController().signal);
    await r.driver.close();
    await r.driver.close();
    await r.driver.open(new AbortController().signal);
    expect(words((await r.driver.execute(printJob(), recordingExecuteContext())).notes)).toMatch(/^Printed/);
  });
});
