import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { normalizeFiscalMachineCommand } from '../../src/connector/model.js';
import { EmptyResponseSchema } from '../../src/connector/wire.js';
import { type PlatformSimulator, parseReceiptNotes } from '../../src/platform-simulator/index.js';
import { call, startSim } from './support.js';

/** A simulator with one keys command the agent has already moved to `state`. */
async function keysCommandIn(state: string) {
  const sim = await startSim();
  const { id } = sim.createKeys();
  await call(sim, 'commands/update', { CommandId: id, State: state });
  return { sim, id };
}

/** The agent's report of a printed sale: Processing, then Processed with the receipt's Notes. */
async function reportPrinted(sim: PlatformSimulator, id: string, notes: string): Promise<void> {
  await call(sim, 'commands/update', { CommandId: id, State: 'Processing', Progress: 0 });
  await call(sim, 'commands/update', { CommandId: id, State: 'Processed', Notes: notes });
}

describe('commands/update', () => {
  it('moves forward, keeps Progress only in Processing and Notes only in terminal states', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 9));
    const sim = await startSim({ clock });
    const { id } = sim.createKeys();
    const steps = [
      { State: 'Received', Progress: 0.5, Notes: 'ignored' },
      { State: 'Processing', Progress: 0 },
      { State: 'Processing', Progress: 0.5, Notes: 'ignored too' },
      { State: 'Processed', Progress: 1, Notes: '2 cards written' },
    ];
    for (const step of steps) {
      await clock.advance(1000);
      const answer = await call(sim, 'commands/update', { CommandId: id, ...step });
      expect(answer.status).toBe(200);
      expect(EmptyResponseSchema.parse(answer.body)).toEqual({});
    }
    expect(sim.history(id)).toEqual([
      { state: 'Pending', at: '2026-03-01T09:00:00.000Z', by: 'platform' },
      { state: 'Received', at: '2026-03-01T09:00:01.000Z', by: 'agent' },
      { state: 'Processing', at: '2026-03-01T09:00:02.000Z', by: 'agent', progress: 0 },
      { state: 'Processing', at: '2026-03-01T09:00:03.000Z', by: 'agent', progress: 0.5 },
      { state: 'Processed', at: '2026-03-01T09:00:04.000Z', by: 'agent', notes: '2 cards written' },
    ]);
    expect(sim.command(id)?.state).toBe('Processed');
  });

  it('allows skipping forward (Pending → Error) and keeps the Notes', async () => {
    const sim = await startSim();
    const { id } = sim.createPrint();
    expect(
      (await call(sim, 'commands/update', { CommandId: id, State: 'Error', Notes: 'Printer offline' }))
        .status,
    ).toBe(200);
    expect(sim.history(id).at(-1)).toMatchObject({ state: 'Error', notes: 'Printer offline' });
  });

  it.each([
    ['Processed', 'Received'],
    ['Processed', 'Processed'],
    ['Cancelled', 'Processing'],
    ['Error', 'Processed'],
  ])('refuses any move out of %s (to %s) with 400', async (terminal, next) => {
    const { sim, id } = await keysCommandIn(terminal);
    const answer = await call(sim, 'commands/update', { CommandId: id, State: next, Notes: 'late' });
    expect(answer.status).toBe(400);
    expect(answer.body.Message).toMatch(/^Invalid State/);
    expect(sim.command(id)?.state).toBe(terminal);
    expect(sim.history(id)).toHaveLength(2);
  });

  it.each([
    ['Received', 'Pending'],
    ['Processing', 'Received'],
    ['Processing', 'Pending'],
  ])('refuses a move backwards from %s to %s with 400', async (from, to) => {
    const { sim, id } = await keysCommandIn(from);
    const answer = await call(sim, 'commands/update', { CommandId: id, State: to });
    expect(answer.status).toBe(400);
    expect(sim.command(id)?.state).toBe(from);
  });

  it('counts accepted and refused updates', async () => {
    const sim = await startSim();
    const { id } = sim.createKeys();
    await call(sim, 'commands/update', { CommandId: id, State: 'Processed' });
    await call(sim, 'commands/update', { CommandId: id, State: 'Received' });
    await call(sim, 'commands/update', { CommandId: 'unknown', State: 'Received' });
    expect(sim.counters().commands).toMatchObject({ updatesAccepted: 1, updatesRejected: 2 });
  });
});

describe('staff actions and receipts', () => {
  it('cancels as staff: Cancelled with Notes in the history; the agent can no longer update it', async () => {
    const sim = await startSim();
    const { id } = sim.createFiscalData();
    await call(sim, 'commands/update', { CommandId: id, State: 'Processing', Progress: 0 });
    const view = sim.cancelAsStaff(id, 'Guest changed their mind');
    expect(view.state).toBe('Cancelled');
    expect(view.history.at(-1)).toMatchObject({
      state: 'Cancelled',
      by: 'staff',
      notes: 'Guest changed their mind',
    });
    const late = await call(sim, 'commands/update', {
      CommandId: id,
      State: 'Processed',
      Notes: 'Receipt 0001-0001',
    });
    expect(late.status).toBe(400);
    expect(() => sim.cancelAsStaff(id)).toThrow(/already Cancelled/);
    expect(() => sim.cancelAsStaff('nope')).toThrow(/No command/);
  });

  it('parses receipt numbers and the serial from Notes', () => {
    expect(parseReceiptNotes('Receipt 0012-0034 on RT 99MEY123456, 12,50 EUR')).toEqual({
      zNumber: '0012',
      documentNumber: '0034',
      serialNumber: '99MEY123456',
    });
    expect(parseReceiptNotes('Printed 0003-0120')).toEqual({ zNumber: '0003', documentNumber: '0120' });
    expect(parseReceiptNotes('Printer offline')).toBeUndefined();
  });

  it('learns a receipt from the Notes of a Processed sale and refunds it later', async () => {
    const sim = await startSim();
    expect(() => sim.createFiscalRefund()).toThrow(/no known receipt/);
    const sale = sim.createFiscalPayload();
    await reportPrinted(sim, sale.id, 'Receipt 0012-0034 on RT 99MEY654321 at 21/11/2026 10:15');
    const [learned] = sim.receipts();
    expect(learned).toMatchObject({
      zNumber: '0012',
      documentNumber: '0034',
      serialNumber: '99MEY654321',
      billId: sale.billId,
    });

    const refund = sim.createFiscalRefund();
    expect(refund.deviceId).toBe(sale.deviceId);
    const flat = normalizeFiscalMachineCommand(refund.wire.fiscal);
    if (!flat.ok || flat.command.data.kind !== 'fiscal') throw new Error('refund does not normalise');
    expect(flat.command.data.fiscal.document).toEqual({
      type: 'data',
      isRefund: true,
      rebated: { receiptNumber: '0034', sequence: '0012', dateTimeUtc: learned?.dateTimeUtc },
      printerSerialNumber: '99MEY654321',
    });
    // The refund bill mirrors the sale with negated amounts.
    const sold = await call(sim, 'orderItems/getAll', { BillIds: [sale.billId], Limitation: { Count: 100 } });
    const refunded = await call(sim, 'orderItems/getAll', {
      BillIds: [refund.billId],
      Limitation: { Count: 100 },
    });
    const gross = (body: Record<string, unknown>) =>
      (body.OrderItems as Array<{ Amount: { GrossValue: number } }>).map((i) => i.Amount.GrossValue).sort();
    expect(gross(refunded.body)).toEqual(
      gross(sold.body)
        .map((g) => -g)
        .sort(),
    );
    // Each receipt is refunded once.
    expect(sim.receipts()[0]?.refunded).toBe(true);
    expect(() => sim.createFiscalRefund()).toThrow(/no known receipt/);
  });

  it('refunds first a receipt whose bill took nothing off (no deposit, no voucher): its refund gives back what it took', async () => {
    const sim = await startSim();
    const deducted = async (billId: string) => {
      const { body } = await call(sim, 'payments/getAll', { BillIds: [billId], Limitation: { Count: 100 } });
      return (body.Payments as Array<{ Type: string }>).some((p) => p.Type === 'ExternalPayment');
    };
    // Sales until three bills have a deposit or voucher and one has none (the seed decides which).
    const sales: Array<{ id: string; billId: string; deducted: boolean }> = [];
    const count = (kind: boolean) => sales.filter((s) => s.deducted === kind).length;
    for (let i = 0; i < 80 && (count(true) < 3 || count(false) < 1); i++) {
      const sale = sim.createFiscalData();
      const billId = sale.billId as string;
      const kind = await deducted(billId);
      if (count(kind) >= (kind ? 3 : 1)) continue;
      sales.push({ id: sale.id, billId, deducted: kind });
    }
    expect([count(true), count(false)]).toEqual([3, 1]);
    for (const [n, sale] of sales.entries()) {
      await reportPrinted(sim, sale.id, `Receipt 0001-000${n + 1} on RT 99MEY123456`);
    }
    const first = sim.createFiscalRefund();
    const plain = sales.find((s) => !s.deducted);
    expect(sim.receipts().find((r) => r.refunded)?.billId).toBe(plain?.billId);
    expect(first.kind).toBe('fiscal-refund');
    // The others are still refunded when no other is left (the agent then refuses them).
    for (let i = 0; i < 3; i++) sim.createFiscalRefund();
    expect(sim.receipts().every((r) => r.refunded)).toBe(true);
  });

  it('does not learn from refunds, errors or Notes without a number', async () => {
    const sim = await startSim();
    const a = sim.createFiscalData();
    const b = sim.createFiscalData();
    await call(sim, 'commands/update', {
      CommandId: a.id,
      State: 'Error',
      Notes: 'Receipt 0001-0002 on RT 99MEY123456',
    });
    await call(sim, 'commands/update', { CommandId: b.id, State: 'Processed', Notes: 'done' });
    expect(sim.receipts()).toEqual([]);
  });

  it('uses the device serial when the Notes give none', async () => {
    const sim = await startSim();
    const sale = sim.createFiscalData();
    await call(sim, 'commands/update', {
      CommandId: sale.id,
      State: 'Processed',
      Notes: 'Receipt 0007-0011',
    });
    expect(sim.receipts()[0]).toMatchObject({
      serialNumber: '99MEY123456',
      zNumber: '0007',
      documentNumber: '0011',
    });
  });
});
