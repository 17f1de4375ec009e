import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AddCommandResponseSchema,
  AddKeyCutterRequestSchema,
  CommandListResponseSchema,
  CommandsByIdsRequestSchema,
  CommandUpdateRequestSchema,
  DevicesResponseSchema,
  EmptyResponseSchema,
  FiscalCommandListResponseSchema,
  FiscalCommandsGetAllRequestSchema,
  normalizeCommand,
  normalizeFiscalMachineCommand,
  OrderItemsRequestSchema,
  OrderItemsResponseSchema,
  PaymentsRequestSchema,
  PaymentsResponseSchema,
  parseEmbeddedJson,
  TokensSchema,
  WsMessageSchema,
} from '../../src/connector/index.js';
import { fixtureNames, loadFixture } from './fake-platform.js';

/** Splits a sample request into its tokens and the operation's own fields. */
function withoutTokens(body: Record<string, unknown>): Record<string, unknown> {
  const { ClientToken, AccessToken, Client, ...rest } = body;
  expect(TokensSchema.parse({ ClientToken, AccessToken, Client })).toBeTruthy();
  return rest;
}

/**
 * Every sample file and the schema it must satisfy. Requests are checked without their tokens
 * (the fiscal filter sets are strict); responses keep their unknown fields, which must be tolerated.
 * `null` marks samples of operations the agent does not call: only their tokens are checked.
 */
const REQUESTS: Record<string, z.ZodType | null> = {
  'commands-addKeyCutter.request.json': AddKeyCutterRequestSchema,
  'commands-addPaymentTerminal.request.json': null,
  'commands-addPrinter.request.json': null,
  'commands-getAllActive.request.json': null,
  'commands-getAllByIds.request.json': CommandsByIdsRequestSchema,
  'commands-update.request.json': CommandUpdateRequestSchema,
  'devices-getAll.request.json': null,
  'fiscalMachineCommands-getAll.request.json': FiscalCommandsGetAllRequestSchema,
  'orderItems-getAll.request.json': OrderItemsRequestSchema,
  'payments-getAll.request.json': PaymentsRequestSchema,
};

const RESPONSES: Record<string, z.ZodType> = {
  'commands-addKeyCutter.response.json': AddCommandResponseSchema,
  'commands-addPaymentTerminal.response.json': AddCommandResponseSchema,
  'commands-addPrinter.response.json': AddCommandResponseSchema,
  'commands-getAllActive.response.json': CommandListResponseSchema,
  'commands-getAllByIds.response.json': CommandListResponseSchema,
  'commands-update.response.json': EmptyResponseSchema,
  'devices-getAll.response.json': DevicesResponseSchema,
  'fiscalMachineCommands-getAll.response.json': FiscalCommandListResponseSchema,
  'orderItems-getAll.response.json': OrderItemsResponseSchema,
  'payments-getAll.response.json': PaymentsResponseSchema,
  'websocket-message.json': WsMessageSchema,
};

describe('the docs samples against the wire schemas', () => {
  it('covers every sample file', () => {
    expect(fixtureNames().sort()).toEqual([...Object.keys(REQUESTS), ...Object.keys(RESPONSES)].sort());
  });

  for (const [name, schema] of Object.entries(REQUESTS)) {
    it(`request ${name} parses`, () => {
      const rest = withoutTokens(loadFixture(name));
      if (schema) expect(schema.safeParse(rest).error).toBeUndefined();
      else if (!name.startsWith('commands-add')) expect(rest).toEqual({});
    });
  }

  for (const [name, schema] of Object.entries(RESPONSES)) {
    it(`response ${name} parses`, () => {
      expect(schema.safeParse(loadFixture(name)).error).toBeUndefined();
    });
  }

  it('the fiscal getAll sample yields one data and one payload document', () => {
    const body = FiscalCommandListResponseSchema.parse(
      loadFixture('fiscalMachineCommands-getAll.response.json'),
    );
    const items = body.Commands.map(normalizeFiscalMachineCommand);
    expect(body.Cursor).toBe('f2e8c456-1234-4567-89ab-cdef01234567');
    const commands = items.map((i) => (i.ok ? i.command : expect.fail(i.error.message)));
    const [first, second] = commands;
    expect(first?.data).toMatchObject({
      kind: 'fiscal',
      fiscal: {
        fiscalMachineId: 'FM-001',
        taxIdentifier: '12345678901',
        // FiscalMachineData is a string holding JSON: parsed a second time.
        machineSettings: { value: { printerPort: 'COM1', baudRate: 9600 } },
        bill: { id: 'ea087d64-3901-4eee-b0b7-9fce4c58a005', number: '1001' },
        document: { type: 'data', isRefund: false, printerSerialNumber: 'FP001-123456' },
      },
    });
    expect(second?.data).toMatchObject({
      kind: 'fiscal',
      fiscal: {
        machineSettings: { value: { printerPort: 'USB001', certificatePath: '/etc/fiscal/cert.p12' } },
        document: { type: 'payload' },
      },
    });
    const payload = second?.data.kind === 'fiscal' ? second.data.fiscal.document : undefined;
    const xml = payload?.type === 'payload' ? Buffer.from(payload.base64, 'base64').toString('utf8') : '';
    expect(xml).toContain('<fvp_doc>');
    expect(first?.device).toEqual({
      id: 'd117866d-78de-4459-9077-42d7ea0120e3',
      type: 'FiscalMachine',
      name: 'Fiscal Printer FP-001',
    });
  });

  it('garbage in FiscalMachineData is kept as an error, not thrown', () => {
    expect(parseEmbeddedJson('{"printerPort": ')).toMatchObject({ value: {}, error: expect.any(String) });
  });

  it('the commands samples normalise to a print job', () => {
    for (const name of ['commands-getAllActive.response.json', 'commands-getAllByIds.response.json']) {
      const items = CommandListResponseSchema.parse(loadFixture(name)).Commands.map(normalizeCommand);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        ok: true,
        command: {
          id: 'aa20961f-6d9e-4b35-ad25-071213530aec',
          state: 'Pending',
          creatorName: 'Sample User',
          source: 'commands',
          data: {
            kind: 'print',
            print: { copyCount: 1, fileType: 'application/pdf', printerName: 'Printer' },
          },
        },
      });
    }
  });

  it('the WebSocket sample carries one DeviceCommand among other event types', () => {
    const message = WsMessageSchema.parse(loadFixture('websocket-message.json'));
    expect(message.Events.filter((e) => e.Type === 'DeviceCommand').map((e) => e.Id)).toEqual([
      '2391a3df-1c61-4131-b6f8-c85b4234adcb',
    ]);
  });

  it('payment amounts may be negative', () => {
    const payments = PaymentsResponseSchema.parse(loadFixture('payments-getAll.response.json')).Payments;
    expect(payments.map((p) => p.Amount.GrossValue)).toEqual([-3700, -300, -500]);
    expect(payments.map((p) => p.Type)).toContain('CashPayment');
  });
});
