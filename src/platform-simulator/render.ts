import { wireBill, wireLegacyBill } from './bill-wire.js';
import type { Ledger } from './bills.js';
import type { FiscalDocumentSpec, SimCommand } from './commands.js';
import { type DocumentRules, discriminatorFor, fiscalDeviceTypeFor, LENIENT_RULES } from './document.js';
import { toBase64 } from './fpmate.js';
import { corrupt } from './malformed.js';
import { euros } from './money.js';
import { utc } from './time.js';
import { type SimDevice, type World, wireDevice } from './world.js';

/**
 * Commands in the platform's two wire shapes: the flat item of `fiscalMachineCommands/getAll`
 * (bill version 2025-06-23) and the item of `commands/getAllActive` / `getAllByIds` whose `Data`
 * depends on `Device.Type` (fiscal commands in the legacy shape). A command created with a
 * `malformed` fault is corrupted here, on every rendering, so it stays broken.
 */

type Json = Record<string, unknown>;

export interface RenderContext {
  world: World;
  ledger: Ledger;
  /** What the document lets the platform send (absent: the lenient defaults). */
  rules?: DocumentRules;
}

/** `Device` of a fiscal command: listed as FiscalMachine or Printer, as the rules say. */
function fiscalWireDevice(ctx: RenderContext, command: SimCommand, device: SimDevice, identifier: boolean) {
  const out = wireDevice(device, identifier);
  out.Type = fiscalDeviceTypeFor(ctx.rules ?? LENIENT_RULES, command.seq);
  return out;
}

/**
 * FiscalMachineAdditionalData with its optional `Discriminator` present, absent or null, as the
 * rules say (Part B › Resources › Fiscal machine command data).
 */
function fiscalCommandData(ctx: RenderContext, command: SimCommand, data: Json | null, payload: Json | null) {
  const out: Json = {
    Discriminator: data ? 'ItalianFiscalMachineData' : 'ItalianFiscalMachinePayload',
    ItalianFiscalMachineData: data,
    ItalianFiscalMachinePayload: payload,
  };
  const variant = discriminatorFor(ctx.rules ?? LENIENT_RULES, command.seq);
  if (variant === 'absent') delete out.Discriminator;
  if (variant === 'null') out.Discriminator = null;
  return out;
}

function italianData(doc: FiscalDocumentSpec): Json | null {
  if (doc.type !== 'data') return null;
  if (!doc.isRefund) {
    return {
      IsRefund: false,
      RebatedReceiptNumber: null,
      RebatedReceiptSequence: null,
      RebatedReceiptDateTimeUtc: null,
      PrinterSerialNumber: doc.serialNumber ?? null,
    };
  }
  return {
    IsRefund: true,
    RebatedReceiptNumber: doc.rebated.documentNumber,
    RebatedReceiptSequence: doc.rebated.zNumber,
    RebatedReceiptDateTimeUtc: doc.rebated.dateTimeUtc,
    PrinterSerialNumber: doc.rebated.serialNumber,
  };
}

function fiscalDevice(
  ctx: RenderContext,
  command: SimCommand,
): Extract<SimDevice, { type: 'FiscalMachine' }> {
  const device = ctx.world.device(command.deviceId);
  if (device?.type !== 'FiscalMachine')
    throw new Error(`command ${command.id}: device is not a FiscalMachine`);
  return device;
}

/**
 * Everything of a rendering but `State` depends only on data fixed at creation (device, bill,
 * reservation, malformation), so it is built once per command and shape. Callers must treat the
 * returned objects as read-only: nested objects are shared between renderings.
 */
const renderings = new WeakMap<SimCommand, { fiscal?: Json; command?: Json }>();

function withState(command: SimCommand, shape: 'fiscal' | 'command', build: () => Json): Json {
  const entry = renderings.get(command) ?? {};
  renderings.set(command, entry);
  let body = entry[shape];
  if (!body) {
    const { Id: _id, State: _state, ...rest } = build();
    body = rest;
    entry[shape] = body;
  }
  return { Id: command.id, State: command.state, ...body };
}

/** An item of `fiscalMachineCommands/getAll`. Only for fiscal kinds. */
export function renderFiscalCommand(command: SimCommand, ctx: RenderContext): Json {
  return withState(command, 'fiscal', () => buildFiscalCommand(command, ctx));
}

function buildFiscalCommand(command: SimCommand, ctx: RenderContext): Json {
  const p = command.payload;
  if (p.kind !== 'fiscal-data' && p.kind !== 'fiscal-refund' && p.kind !== 'fiscal-payload') {
    throw new Error(`command ${command.id} is not fiscal`);
  }
  const device = fiscalDevice(ctx, command);
  const bill = ctx.ledger.bill(p.billId);
  const data = italianData(p.document);
  const out: Json = {
    Id: command.id,
    State: command.state,
    CreatedUtc: utc(command.createdAt),
    Creator: { Discriminator: 'Enterprise', EnterpriseProfile: { ProfileId: command.creator.profileId } },
    FiscalMachineId: device.fiscalMachineId,
    ApiUrl: device.apiUrl,
    FiscalMachineData: JSON.stringify(device.settings),
    TaxIdentifier: bill?.customerTaxId ?? null,
    Device: fiscalWireDevice(ctx, command, device, true),
    Bill: bill ? wireBill(bill) : null,
    CommandData: fiscalCommandData(
      ctx,
      command,
      data,
      p.document.type === 'payload' ? { Payload: toBase64(p.document.xml) } : null,
    ),
  };
  return command.malformed ? corrupt(out, command.malformed, 'fiscal-flat') : out;
}

function creator(command: SimCommand): Json {
  return { FirstName: command.creator.firstName, LastName: command.creator.lastName, ImageUrl: null };
}

function commandData(command: SimCommand, device: SimDevice, ctx: RenderContext): Json {
  const p = command.payload;
  switch (p.kind) {
    case 'fiscal-data':
    case 'fiscal-refund':
    case 'fiscal-payload': {
      const fiscal = fiscalDevice(ctx, command);
      const bill = ctx.ledger.bill(p.billId);
      const data = italianData(p.document);
      return {
        FiscalMachineId: fiscal.fiscalMachineId,
        ApiUrl: fiscal.apiUrl,
        FiscalMachineData: JSON.stringify(fiscal.settings),
        Bill: bill ? wireLegacyBill(bill, ctx.ledger) : null,
        TaxIdentifier: bill?.customerTaxId ?? null,
        BillFiscalMachineData: data ? { Discriminator: 'ItalianFiscalMachineData', Value: data } : null,
        PayloadData:
          p.document.type === 'payload'
            ? { Discriminator: 'ItalianFiscalMachine', Value: toBase64(p.document.xml) }
            : null,
      };
    }
    case 'keys': {
      const r = ctx.world.reservation(p.reservationId);
      if (!r || device.type !== 'KeyCutter') throw new Error(`command ${command.id}: bad key-cutter data`);
      return {
        KeyCount: p.keyCount,
        LockIds: r.lockIds,
        StartUtc: utc(r.startUtc),
        EndUtc: utc(r.endUtc),
        FirstName: r.guest.firstName ?? null,
        LastName: r.guest.lastName,
        NormalizedFirstName: r.guest.normalizedFirstName ?? null,
        NormalizedLastName: r.guest.normalizedLastName ?? null,
        Telephone: r.guest.telephone,
        Email: r.guest.email,
        ReservationId: r.id,
        ReservationNumber: r.number,
        KeyCutterId: device.keyCutterId,
        ApiUrl: device.apiUrl ?? null,
        KeyCutterData: JSON.stringify(device.settings),
      };
    }
    case 'printer':
      if (device.type !== 'Printer') throw new Error(`command ${command.id}: device is not a Printer`);
      return {
        CopyCount: p.copyCount,
        FileType: p.fileType,
        FileData: p.fileData,
        PrinterName: device.printerName ?? device.name,
        PrinterDriverName: device.driverName,
        PrinterPortName: device.portName,
      };
    case 'payment-terminal':
      return {
        Type: 'Payment',
        Amount: { Currency: 'EUR', Value: euros(p.amountCents) },
        BillId: p.billId,
        CustomerId: p.customerId,
      };
  }
}

/** An item of `commands/getAllActive` / `getAllByIds`. */
export function renderCommand(command: SimCommand, ctx: RenderContext): Json {
  return withState(command, 'command', () => buildCommand(command, ctx));
}

function buildCommand(command: SimCommand, ctx: RenderContext): Json {
  const device = ctx.world.device(command.deviceId);
  if (!device) throw new Error(`command ${command.id}: unknown device ${command.deviceId}`);
  const out: Json = {
    Id: command.id,
    State: command.state,
    CreatedUtc: utc(command.createdAt),
    Creator: creator(command),
    Device: isFiscalKind(command) ? fiscalWireDevice(ctx, command, device, false) : wireDevice(device, false),
    Data: commandData(command, device, ctx),
  };
  return command.malformed ? corrupt(out, command.malformed, 'command') : out;
}

export function isFiscalKind(command: SimCommand): boolean {
  return (
    command.kind === 'fiscal-data' || command.kind === 'fiscal-refund' || command.kind === 'fiscal-payload'
  );
}
