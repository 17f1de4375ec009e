import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { normalizeCommand, normalizeFiscalMachineCommand } from '../../src/connector/model.js';
import {
  AddCommandResponseSchema,
  DevicesResponseSchema,
  FiscalCommandListResponseSchema,
  OrderItemsResponseSchema,
  PaymentsResponseSchema,
} from '../../src/connector/wire.js';
import type { PlatformSimulator } from '../../src/platform-simulator/index.js';
import { call, missingKeys, payloadBase64, startSim } from './support.js';

/** The platform docs' samples, kept verbatim in the repository (see test/fixtures/connector-docs). */
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'connector-docs');
const fixture = (name: string) =>
  JSON.parse(readFileSync(`${FIXTURES}/${name}`, 'utf8')) as Record<string, unknown>;
const first = <T>(value: unknown, index = 0) => (value as T[])[index] as T;
const cents = (euros: number) => Math.round(euros * 100);

type Json = Record<string, unknown>;

async function items(sim: PlatformSimulator, billIds: string[]) {
  const orderItems = OrderItemsResponseSchema.parse(
    (await call(sim, 'orderItems/getAll', { BillIds: billIds, Limitation: { Count: 1000 } })).body,
  );
  const payments = PaymentsResponseSchema.parse(
    (await call(sim, 'payments/getAll', { BillIds: billIds, Limitation: { Count: 1000 } })).body,
  );
  const raw = await call(sim, 'orderItems/getAll', { BillIds: billIds, Limitation: { Count: 1000 } });
  const rawPayments = await call(sim, 'payments/getAll', { BillIds: billIds, Limitation: { Count: 1000 } });
  return {
    orderItems,
    payments,
    rawItems: raw.body.OrderItems as Json[],
    rawPayments: rawPayments.body.Payments as Json[],
  };
}

describe('responses have the shapes of the documentation samples', () => {
  it('the shape check itself notices a missing key and accepts a null object', () => {
    expect(missingKeys({ A: { B: 1 }, C: 2 }, { A: {} })).toEqual(['A.B', 'C']);
    expect(missingKeys({ A: { B: 1 } }, { A: null })).toEqual([]);
  });

  it('fiscalMachineCommands/getAll: data and payload items carry every key of the samples', async () => {
    const sim = await startSim();
    const data = sim.createFiscalData();
    const payload = sim.createFiscalPayload();
    const answer = await call(sim, 'fiscalMachineCommands/getAll', {
      CommandIds: [data.id, payload.id],
      Limitation: { Count: 10 },
    });
    const sample = fixture('fiscalMachineCommands-getAll.response.json');
    expect(Object.keys(answer.body).sort()).toEqual(Object.keys(sample).sort());
    FiscalCommandListResponseSchema.parse(answer.body);
    const [payloadItem, dataItem] = answer.body.Commands as Json[];
    expect(missingKeys(first(sample.Commands, 0), dataItem)).toEqual([]);
    expect(missingKeys(first(sample.Commands, 1), payloadItem)).toEqual([]);
    for (const item of [dataItem, payloadItem]) expect(normalizeFiscalMachineCommand(item).ok).toBe(true);
  });

  it('commands/getAllActive and getAllByIds: printer items carry every key of the sample', async () => {
    const sim = await startSim();
    const print = sim.createPrint();
    const sample = fixture('commands-getAllActive.response.json');
    for (const op of ['commands/getAllActive', 'commands/getAllByIds']) {
      const answer = await call(sim, op, op.endsWith('ByIds') ? { CommandIds: [print.id] } : {});
      expect(Object.keys(answer.body)).toEqual(['Commands']);
      expect(missingKeys(first(sample.Commands), first(answer.body.Commands))).toEqual([]);
    }
    const normal = normalizeCommand(print.wire.command);
    expect(normal.ok && normal.command.data.kind).toBe('print');
    const pdf = Buffer.from((print.wire.command.Data as { FileData: string }).FileData, 'base64').toString(
      'latin1',
    );
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
  });

  it('devices/getAll, addKeyCutter and update answer like the samples', async () => {
    const sim = await startSim();
    const devices = await call(sim, 'devices/getAll');
    DevicesResponseSchema.parse(devices.body);
    expect(missingKeys(fixture('devices-getAll.response.json'), devices.body)).toEqual([]);
    const encoder = sim.world.devices.find((d) => d.type === 'KeyCutter');
    const added = await call(sim, 'commands/addKeyCutter', {
      KeyCutterId: encoder?.id,
      ReservationId: sim.world.reservations[0]?.id,
      KeyCount: 1,
    });
    AddCommandResponseSchema.parse(added.body);
    expect(Object.keys(added.body)).toEqual(Object.keys(fixture('commands-addKeyCutter.response.json')));
    const update = await call(sim, 'commands/update', { CommandId: added.body.CommandId, State: 'Received' });
    expect(update.body).toEqual(fixture('commands-update.response.json'));
  });

  it('orderItems/getAll and payments/getAll carry every key of the samples', async () => {
    const sim = await startSim({ seed: 11 });
    const bills = Array.from({ length: 12 }, () => sim.createFiscalData().billId as string);
    const { rawItems, rawPayments } = await items(sim, bills);
    const itemSample = fixture('orderItems-getAll.response.json');
    const payments = fixture('payments-getAll.response.json');
    const product = rawItems.find((i) => i.Data !== null);
    const plain = rawItems.find((i) => i.Data === null);
    const card = rawPayments.find((p) => p.Type === 'CreditCardPayment');
    const cash = rawPayments.find((p) => p.Type === 'CashPayment');
    expect(missingKeys(first(itemSample.OrderItems, 1), product)).toEqual([]);
    expect(missingKeys(first(itemSample.OrderItems, 0), plain)).toEqual([]);
    expect(missingKeys(first(payments.Payments, 0), card)).toEqual([]);
    expect(missingKeys(first(payments.Payments, 1), cash)).toEqual([]);
  });
});

describe('money and documents are consistent', () => {
  it('every item is EUR with Italian VAT, gross = net + tax to the cent, and each bill balances', async () => {
    const sim = await startSim({ seed: 5 });
    const bills = Array.from({ length: 15 }, () => sim.createFiscalData().billId as string);
    const { orderItems, payments } = await items(sim, bills);
    const rates = new Set<number>();
    for (const item of orderItems.OrderItems) {
      for (const amount of [item.UnitAmount, item.Amount]) {
        expect(amount.Currency).toBe('EUR');
        const tax = (amount.TaxValues ?? []).reduce((s, t) => s + cents(t.Value), 0);
        expect(cents(amount.GrossValue ?? 0)).toBe(cents(amount.NetValue ?? 0) + tax);
        const rate = Math.round((tax / cents(amount.NetValue ?? 1)) * 100);
        expect([22, 10, 4, 0]).toContain(rate);
        rates.add(rate);
      }
    }
    expect(rates.size).toBeGreaterThanOrEqual(3);
    for (const bill of bills) {
      const total = orderItems.OrderItems.filter((i) => i.BillId === bill).reduce(
        (s, i) => s + cents(i.Amount.GrossValue ?? 0),
        0,
      );
      const paid = payments.Payments.filter((p) => p.BillId === bill).reduce(
        (s, p) => s + cents(p.Amount.GrossValue ?? 0),
        0,
      );
      expect(total).toBeGreaterThan(0);
      expect(paid).toBe(-total);
    }
  });

  it.each(['soap', 'bare'] as const)(
    'payload commands carry a valid fpmate printerFiscalReceipt (%s)',
    async (envelope) => {
      const sim = await startSim({ seed: 9 });
      const command = sim.createFiscalPayload({ envelope });
      const base64 = payloadBase64(normalizeFiscalMachineCommand(command.wire.fiscal));
      const xml = Buffer.from(base64, 'base64').toString('utf8');
      const parser = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '',
        isArray: (name) => ['printRecItem', 'printRecTotal', 'printRecMessage'].includes(name),
      });
      const doc = parser.parse(xml) as Json;
      const envelopeNode = doc['s:Envelope'] as Json | undefined;
      expect(envelopeNode !== undefined).toBe(envelope === 'soap');
      if (envelopeNode) expect(envelopeNode['xmlns:s']).toBe('http://schemas.xmlsoap.org/soap/envelope/');
      const receipt = (
        envelopeNode ? (envelopeNode['s:Body'] as Json).printerFiscalReceipt : doc.printerFiscalReceipt
      ) as Json;
      expect(receipt.beginFiscalReceipt).toBeDefined();
      expect(receipt.endFiscalReceipt).toBeDefined();
      const lines = receipt.printRecItem as Array<Record<string, string>>;
      const totals = receipt.printRecTotal as Array<Record<string, string>>;
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line.description).toMatch(/^[\x20-\x7e]{1,38}$/);
        expect(line.quantity).toMatch(/^\d+$/);
        expect(line.unitPrice).toMatch(/^\d+\.\d{2}$/);
        expect(['1', '2', '3', '4']).toContain(line.department);
      }
      for (const total of totals) {
        expect(total.payment).toMatch(/^\d+\.\d{2}$/);
        expect(['0', '2']).toContain(total.paymentType);
      }
      const itemsCents = lines.reduce((s, l) => s + Number(l.quantity) * cents(Number(l.unitPrice)), 0);
      const paidCents = totals.reduce((s, t) => s + cents(Number(t.payment)), 0);
      expect(paidCents).toBe(itemsCents);
      const { orderItems } = await items(sim, [command.billId as string]);
      expect(orderItems.OrderItems.reduce((s, i) => s + cents(i.Amount.GrossValue ?? 0), 0)).toBe(itemsCents);
    },
  );

  it('guests include accents, ligatures and non-Latin scripts; normalised names are plain ASCII', async () => {
    const sim = await startSim();
    const names = sim.world.reservations.map((r) => `${r.guest.firstName ?? ''} ${r.guest.lastName}`.trim());
    expect(names).toEqual(expect.arrayContaining(['Zoë Müller-Lüdenscheidt', 'Ægir Þórsson', '太郎 山田']));
    for (const reservation of sim.world.reservations.slice(0, 3)) {
      const keys = sim.createKeys({ reservationId: reservation.id });
      const normal = normalizeCommand(keys.wire.command);
      if (!normal.ok || normal.command.data.kind !== 'keys')
        throw new Error('keys command does not normalise');
      const guest = normal.command.data.keys.guest;
      expect(guest.lastName).toBe(reservation.guest.lastName);
      for (const n of [guest.normalizedFirstName, guest.normalizedLastName]) {
        if (n !== undefined) expect(n).toMatch(/^[\x20-\x7e]+$/);
      }
    }
    expect(sim.world.reservations[0]?.guest).toMatchObject({
      normalizedFirstName: 'Zoe',
      normalizedLastName: 'Muller-Ludenscheidt',
    });
    expect(sim.world.reservations[1]?.guest).toMatchObject({
      normalizedFirstName: 'AEgir',
      normalizedLastName: 'Thorsson',
    });
    expect(sim.world.reservations[2]?.guest.normalizedLastName).toBeUndefined();
  });

  it('key-cutter data: locks of the rooms, the stay in UTC, the encoder id and its settings', async () => {
    const sim = await startSim({
      scenario: {
        rooms: [{ number: 101, lockIds: ['L-101', 'L-GYM'] }, { number: 102 }],
        reservations: {
          generate: 0,
          list: [{ id: 'res-1', lastName: 'Rossi', rooms: [101, 102], arrival: '2026-07-10', nights: 3 }],
        },
        devices: [
          {
            id: 'enc-1',
            type: 'KeyCutter',
            name: 'Encoder',
            keyCutterId: 'ENC01',
            apiUrl: 'tcp://127.0.0.1:9000',
            settings: { Type: 'Salto', Port: 9000 },
          },
        ],
      },
    });
    const keys = sim.createKeys({ reservationId: 'res-1', keyCount: 2 });
    const normal = normalizeCommand(keys.wire.command);
    if (!normal.ok || normal.command.data.kind !== 'keys') throw new Error('keys command does not normalise');
    expect(normal.command.data.keys).toMatchObject({
      keyCount: 2,
      lockIds: ['L-101', 'L-GYM', '102'],
      startUtc: '2026-07-10T12:00:00.000Z',
      endUtc: '2026-07-13T09:00:00.000Z',
      reservationId: 'res-1',
      keyCutterId: 'ENC01',
      apiUrl: 'tcp://127.0.0.1:9000',
      settings: { value: { Type: 'Salto', Port: 9000 } },
    });
  });
});
