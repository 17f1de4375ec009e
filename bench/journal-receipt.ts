import type { Journal } from '../src/commands/journal/index.js';
import type { MachineState } from '../src/commands/rules/index.js';
import { normalizeFiscalMachineCommand } from '../src/connector/model.js';
import { textMessage } from '../src/messages/message.js';
import { journaledCommand } from '../test/commands/helpers/commands.js';

/**
 * One payload receipt's journal writes, as the engine drives them, shared by the benches that
 * measure the journal (`journal-writes.ts`) and the work every receipt requires
 * (`required-work.ts`).
 */

const m = (phase: MachineState['phase'], state: MachineState['state'], attempt = 0): MachineState => ({
  phase,
  state,
  attempt,
});

const DEFAULT_DOCUMENT = `<printerFiscalReceipt>${'<printRecItem description="Camera doppia" />'.repeat(30)}</printerFiscalReceipt>`;

/** A payload receipt as the platform sends it, normalised: a guest, a tax code, `document` in Base64 (2 KB by default). */
export function receipt(id: string, document = DEFAULT_DOCUMENT) {
  const item = normalizeFiscalMachineCommand(rawReceipt(id, document));
  if (!item.ok) throw new Error(`bench receipt does not normalise: ${JSON.stringify(item)}`);
  return item.command;
}

/** The same receipt as an item of `fiscalMachineCommands/getAll`, before normalisation. */
export function rawReceipt(id: string, document = DEFAULT_DOCUMENT) {
  const payload = Buffer.from(document).toString('base64');
  return {
    Id: id,
    State: 'Pending',
    CreatedUtc: '2026-01-01T00:00:00Z',
    FiscalMachineId: 'FM-001',
    TaxIdentifier: 'RSSMRA80A01H501U',
    Creator: { FirstName: 'Anna', LastName: 'Bianchi' },
    Device: { Id: 'dev-fiscal-1', Type: 'FiscalMachine', Name: 'RT', Identifier: null },
    Bill: { Id: `bill-${id}`, Name: 'Ricevuta – Maria Rossi', Number: '1001', State: 'Closed' },
    CommandData: {
      Discriminator: 'ItalianFiscalMachinePayload',
      ItalianFiscalMachinePayload: { Payload: payload },
    },
  };
}

/** The journal's writes and flushes for receipt `id` from its intake to its close; `c` is its normalised command. */
export async function oneReceipt(journal: Journal, id: string, at: number, c = receipt(id)): Promise<void> {
  journal.transaction(() => {
    journal.insert(journaledCommand(c, at), {
      machine: m('accepted', 'Received'),
      at,
      reported: ['Received'],
    });
    journal.outbox.add({ commandId: id, state: 'Received' }, at);
  });
  await journal.flush();
  const [received] = journal.outbox.pendingFor(id);
  journal.transaction(() => {
    if (received) journal.outbox.remove(received.seq);
    journal.update(id, { machine: m('received', 'Received'), at });
  });
  journal.update(id, { machine: m('starting', 'Received'), at });
  journal.transaction(() => {
    journal.update(id, {
      machine: m('running', 'Processing', 1),
      at,
      startedAt: at,
      reported: ['Processing'],
    });
    journal.outbox.add({ commandId: id, state: 'Processing', progress: 0 }, at);
  });
  await journal.flush();
  journal.setCheckpoint(id, { driver: 'epson-fpmate', v: 1, state: { sending: true, z: 12, doc: 34 } });
  await journal.flush();
  const notes = textMessage('Receipt 0012-0034 on RT 99MEY123456, total 123.45 EUR');
  journal.transaction(() => {
    journal.update(id, {
      machine: m('finished', 'Processed', 1),
      at,
      reported: ['Processed'],
      outcome: 'Processed',
      finishedAt: at,
      result: { notes, details: { receiptNumber: '0012-0034' } },
      notes,
    });
    journal.outbox.add({ commandId: id, state: 'Processed', notes: 'Receipt 0012-0034' }, at);
  });
  await journal.flush();
  journal.transaction(() => {
    for (const item of journal.outbox.pendingFor(id)) journal.outbox.remove(item.seq);
    journal.update(id, { machine: m('closed', 'Processed', 1), at });
  });
}
