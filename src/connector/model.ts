import type { z } from 'zod';
import { errorCodeNote } from '../errors.js';
import type { Message } from '../messages/message.js';
import { formatIssues, ONE_LINE } from '../zod-issues.js';
import { boundedId, COMMAND_LIMITS, commandBoundsViolation, embeddedDepthViolation } from './bounds.js';
import type {
  EmbeddedJson,
  FiscalBill,
  FiscalDocument,
  FiscalJobData,
  KeyJobData,
  LegacyLine,
  NormalizedItem,
  PlatformCommand,
  PrintJobData,
} from './command-model.js';
import { connectorMessages } from './messages.js';
import {
  CommandSchema,
  type CommandState,
  FiscalMachineCommandSchema,
  KeyCutterDataSchema,
  LegacyFiscalDataSchema,
  PrinterDataSchema,
  type WireBill,
  type WireFiscalMachineCommand,
} from './wire.js';

/**
 * Normalising the wire's command items into the agent's model (`command-model.ts`, re-exported
 * whole here so the rest of the agent keeps one import for the model and its readers).
 */
export type * from './command-model.js';

/**
 * Parses a JSON-in-a-string field. Garbage is kept as an error, never thrown; so is a string
 * longer than `COMMAND_LIMITS.maxEmbeddedJsonChars` or a value nested deeper than `maxDepth`
 * (the normalisers refuse such a command instead: `embeddedField`).
 */
export function parseEmbeddedJson(text: string | undefined): EmbeddedJson {
  const read = embeddedField(text, 'it');
  return typeof read === 'string' ? { value: {}, error: read } : read;
}

/** The embedded JSON of `field`, or why the command cannot be read because of it (its bounds). */
function embeddedField(text: string | undefined, field: string): EmbeddedJson | string {
  if (text === undefined || text.trim() === '') return { value: {} };
  if (text.length > COMMAND_LIMITS.maxEmbeddedJsonChars) {
    return `${field} is longer than ${COMMAND_LIMITS.maxEmbeddedJsonChars} characters`;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { value: {}, error: `not JSON (${(e as Error).message})` };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { value: {}, error: 'expected a JSON object' };
  }
  return embeddedDepthViolation(parsed, field) ?? { value: parsed as Record<string, unknown> };
}

function invalid(raw: unknown, what: string, message: string, notes?: Message): NormalizedItem {
  const r = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const device = (r.Device !== null && typeof r.Device === 'object' ? r.Device : {}) as Record<
    string,
    unknown
  >;
  const id = boundedId(r.Id);
  const out: NormalizedItem = {
    ok: false,
    error: {
      code: 'COMMAND_INVALID',
      message: `${what}: ${message}`,
      notes: notes ?? errorCodeNote('COMMAND_INVALID'),
      retryable: false,
      details: id ? { commandId: id } : {},
    },
  };
  const deviceId = boundedId(device.Id);
  const deviceType = boundedId(device.Type);
  const state = boundedId(r.State);
  if (id) out.id = id;
  if (deviceId) out.deviceId = deviceId;
  if (deviceType) out.deviceType = deviceType;
  if (state) out.state = state;
  return out;
}

/**
 * Thrown by an `ItemReader` to refuse the item it reads; `bounded` answers with `item`. Not an
 * `Error`: a refusal is an answer, and capturing a stack per malformed item is what let a listing
 * of 400,000 empty items take 540 bytes of heap per byte of answer (issue 40, M4).
 */
class Refusal {
  constructor(readonly item: NormalizedItem) {}
}

/** The steps of reading one item: each returns what it read, or refuses the item as `what`. */
interface ItemReader {
  /** `value` as `schema` reads it; refused with the schema's complaints otherwise. */
  parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S>;
  /** The embedded JSON of `field`; refused when it is outside its bounds. */
  embedded(text: string | undefined, field: string): EmbeddedJson;
  refuse(message: string): never;
}

function reader(raw: unknown, what: string): ItemReader {
  return {
    parse(schema, value) {
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw new Refusal(invalid(raw, what, formatIssues(parsed.error, ONE_LINE)));
      return parsed.data;
    },
    embedded(text, field) {
      const read = embeddedField(text, field);
      if (typeof read === 'string')
        throw new Refusal(invalid(raw, what, read, connectorMessages.commandOversized()));
      return read;
    },
    refuse(message) {
      throw new Refusal(invalid(raw, what, message));
    },
  };
}

/**
 * Runs a normaliser on one item so that nothing escapes it: an item outside `COMMAND_LIMITS` is
 * refused before it is read, a step of its reader refuses it as `what`, and anything else thrown
 * while reading it makes that item invalid.
 */
function bounded(
  raw: unknown,
  what: string,
  normalize: (read: ItemReader, raw: unknown) => NormalizedItem,
): NormalizedItem {
  try {
    const violation = commandBoundsViolation(raw);
    if (violation) return invalid(raw, what, violation, connectorMessages.commandOversized());
    return normalize(reader(raw, what), raw);
  } catch (e) {
    if (e instanceof Refusal) return e.item;
    return invalid(raw, what, `unreadable (${e instanceof Error ? e.message.slice(0, 200) : 'unknown'})`);
  }
}

function creatorName(creator: { FirstName?: string; LastName?: string } | undefined): string | undefined {
  if (!creator) return undefined;
  const name = [creator.FirstName, creator.LastName].filter(Boolean).join(' ');
  return name || undefined;
}

function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

function legacyLines(items: WireBill['Revenue']): LegacyLine[] | undefined {
  if (!items) return undefined;
  return items.map((i) =>
    compact({
      name: i.Name ?? i.Notes ?? i.Type ?? 'Item',
      type: i.Type,
      unitCount: i.UnitCount ?? 1,
      gross: i.Amount.GrossValue ?? i.Amount.Value ?? 0,
      net: i.Amount.NetValue,
      tax: i.Amount.TaxValues ? i.Amount.TaxValues.reduce((sum, t) => sum + t.Value, 0) : undefined,
      currency: i.Amount.Currency,
      taxCodes: (i.Amount.TaxValues ?? []).map((t) => t.Code ?? '').filter(Boolean),
      canceled: Boolean(i.CanceledUtc),
    }),
  );
}

/** The buyer of a bill: consumer or business, and a consumer's lottery code (see `FiscalBill`). */
function buyerOf(bill: WireBill): FiscalBill['buyer'] {
  const owner = bill.Owner ?? bill.OwnerData;
  const company =
    bill.AccountType === 'Company' ||
    owner?.Discriminator === 'BillCompanyData' ||
    (owner?.BillCompanyData !== undefined && owner.BillCustomerData === undefined);
  const customer = bill.AccountType === 'Customer' || owner?.Discriminator === 'BillCustomerData';
  if (!company && !customer) return undefined;
  if (company) return { kind: 'company' };
  const data = owner?.BillCustomerData ?? owner?.Value;
  const code = data?.LegalIdentifiers?.ItLotteryCode ?? undefined;
  return code ? { kind: 'customer', lotteryCode: code } : { kind: 'customer' };
}

function toBill(bill: WireBill): FiscalBill {
  return compact({
    id: bill.Id,
    number: bill.Number,
    name: bill.Name,
    issuedUtc: bill.IssuedUtc,
    enterpriseId: bill.EnterpriseId,
    correctionType: bill.CorrectionType,
    legacyItems: legacyLines(bill.Revenue),
    legacyPayments: legacyLines(bill.Payments),
    buyer: buyerOf(bill),
  });
}

/** The fields every command shares, whichever operation it came from. */
function envelope(
  c: {
    Id: string;
    State: CommandState;
    CreatedUtc: string;
    Creator?: { FirstName?: string; LastName?: string } | undefined;
    Device: { Id: string; Type: string; Name: string; Identifier?: string | undefined };
  },
  source: PlatformCommand['source'],
): Omit<PlatformCommand, 'data'> {
  return compact({
    id: c.Id,
    state: c.State,
    createdUtc: c.CreatedUtc,
    device: compact({
      id: c.Device.Id,
      type: c.Device.Type,
      name: c.Device.Name,
      identifier: c.Device.Identifier,
    }),
    creatorName: creatorName(c.Creator),
    source,
  });
}

/**
 * Normalises one item of `fiscalMachineCommands/getAll`. Never throws: an item outside
 * `COMMAND_LIMITS`, or one that cannot be read, comes back invalid.
 */
export function normalizeFiscalMachineCommand(raw: unknown): NormalizedItem {
  return bounded(raw, 'Malformed fiscal command', fiscalMachineCommand);
}

function fiscalMachineCommand(read: ItemReader, raw: unknown): NormalizedItem {
  const c = read.parse(FiscalMachineCommandSchema, raw);
  const document = fiscalDocumentOf(c.CommandData);
  if (typeof document === 'string') read.refuse(document);
  const fiscal = fiscalJob(c, read.embedded(c.FiscalMachineData, 'FiscalMachineData'), document);
  return { ok: true, command: { ...envelope(c, 'fiscalMachineCommands'), data: { kind: 'fiscal', fiscal } } };
}

/** The fiscal job both command shapes carry under the same names, with the document each tells its own way. */
function fiscalJob(
  f: { FiscalMachineId?: string; ApiUrl?: string; TaxIdentifier?: string; Bill: WireBill },
  machineSettings: EmbeddedJson,
  document: FiscalDocument,
): FiscalJobData {
  return compact({
    fiscalMachineId: f.FiscalMachineId,
    apiUrl: f.ApiUrl,
    machineSettings,
    taxIdentifier: f.TaxIdentifier,
    bill: toBill(f.Bill),
    document,
  });
}

type WireFiscalCommandData = NonNullable<WireFiscalMachineCommand['CommandData']>;

/**
 * The document of a fiscal command's `CommandData` (FiscalMachineAdditionalData), or why there is
 * none. `Discriminator` is optional (platform-interfaces.md, Part B › Resources › Fiscal machine
 * command data): when it is absent or null the shape is told by which object is present, and the
 * command is malformed only when neither or both are. A `Discriminator` names the object to use,
 * which must then be present; a value the document does not list is malformed.
 */
export function fiscalDocumentOf(cd: WireFiscalCommandData | undefined): FiscalDocument | string {
  if (!cd) return 'no CommandData';
  const data = cd.ItalianFiscalMachineData;
  const payload = cd.ItalianFiscalMachinePayload;
  switch (cd.Discriminator) {
    case 'ItalianFiscalMachinePayload':
      return payload
        ? { type: 'payload', base64: payload.Payload }
        : 'CommandData has no usable ItalianFiscalMachinePayload';
    case 'ItalianFiscalMachineData':
      return data ? italianData(data) : 'CommandData has no usable ItalianFiscalMachineData';
    case undefined:
      if (data && payload)
        return 'CommandData has both ItalianFiscalMachineData and ItalianFiscalMachinePayload and no Discriminator';
      if (payload) return { type: 'payload', base64: payload.Payload };
      if (data) return italianData(data);
      return 'CommandData has neither ItalianFiscalMachineData nor ItalianFiscalMachinePayload';
    default:
      return `CommandData has an unknown Discriminator (${cd.Discriminator.slice(0, 60)})`;
  }
}

/**
 * `Device.Type` values under which the platform lists a fiscal machine's commands: both occur in
 * the document (Part B › Resources › Fiscal machine command data, `Device`). A device configured
 * as a FiscalMachine is driven as one whichever of these a listing shows; any other type is not
 * ours.
 */
export const FISCAL_LISTED_TYPES: readonly string[] = ['FiscalMachine', 'Printer'];

/**
 * Whether a command listed with `listedType` fits a device configured as `configuredType`: a
 * fiscal machine may be listed as `FiscalMachine` or `Printer`; every other device only under its
 * own type.
 */
export function listedTypeFits(configuredType: string, listedType: string | undefined): boolean {
  if (listedType === undefined) return false;
  if (configuredType === 'FiscalMachine') return FISCAL_LISTED_TYPES.includes(listedType);
  return listedType === configuredType;
}

function italianData(d: {
  IsRefund: boolean;
  RebatedReceiptNumber?: string;
  RebatedReceiptSequence?: string;
  RebatedReceiptDateTimeUtc?: string;
  PrinterSerialNumber?: string;
}): FiscalDocument {
  const rebated = compact({
    receiptNumber: d.RebatedReceiptNumber,
    sequence: d.RebatedReceiptSequence,
    dateTimeUtc: d.RebatedReceiptDateTimeUtc,
  });
  return compact({
    type: 'data' as const,
    isRefund: d.IsRefund,
    rebated: Object.keys(rebated).length ? rebated : undefined,
    printerSerialNumber: d.PrinterSerialNumber,
  });
}

/**
 * Normalises one item of `commands/getAllActive` or `commands/getAllByIds`. Never throws: an item
 * outside `COMMAND_LIMITS`, or one that cannot be read, comes back invalid.
 */
export function normalizeCommand(raw: unknown): NormalizedItem {
  return bounded(raw, 'Malformed command', command);
}

function command(read: ItemReader, raw: unknown): NormalizedItem {
  const c = read.parse(CommandSchema, raw);
  const base = envelope(c, 'commands');
  switch (c.Device.Type) {
    case 'KeyCutter': {
      const keyCutter = reader(raw, 'Malformed key-cutter command');
      const k = keyCutter.parse(KeyCutterDataSchema, c.Data);
      const settings = keyCutter.embedded(k.KeyCutterData, 'KeyCutterData');
      const keys: KeyJobData = compact({
        keyCount: k.KeyCount,
        lockIds: k.LockIds,
        startUtc: k.StartUtc,
        endUtc: k.EndUtc,
        guest: compact({
          firstName: k.FirstName,
          lastName: k.LastName,
          normalizedFirstName: k.NormalizedFirstName,
          normalizedLastName: k.NormalizedLastName,
          telephone: k.Telephone,
          email: k.Email,
        }),
        reservationId: k.ReservationId,
        reservationNumber: k.ReservationNumber,
        keyCutterId: k.KeyCutterId,
        apiUrl: k.ApiUrl,
        settings,
      });
      return { ok: true, command: { ...base, data: { kind: 'keys', keys } } };
    }
    case 'FiscalMachine': {
      const fiscalData: ItemReader = reader(raw, 'Malformed fiscal command');
      const f = fiscalData.parse(LegacyFiscalDataSchema, c.Data);
      const machineSettings = fiscalData.embedded(f.FiscalMachineData, 'FiscalMachineData');
      let document: FiscalDocument;
      if (f.PayloadData?.Value) document = { type: 'payload', base64: f.PayloadData.Value };
      else if (f.BillFiscalMachineData?.Value) document = italianData(f.BillFiscalMachineData.Value);
      else fiscalData.refuse('neither PayloadData nor BillFiscalMachineData');
      const fiscal = fiscalJob(f, machineSettings, document);
      return { ok: true, command: { ...base, data: { kind: 'fiscal', fiscal } } };
    }
    case 'Printer': {
      const p = reader(raw, 'Malformed printer command').parse(PrinterDataSchema, c.Data);
      const print: PrintJobData = compact({
        copyCount: p.CopyCount,
        fileType: p.FileType,
        fileData: p.FileData,
        printerName: p.PrinterName,
        printerDriverName: p.PrinterDriverName || undefined,
        printerPortName: p.PrinterPortName || undefined,
      });
      return { ok: true, command: { ...base, data: { kind: 'print', print } } };
    }
    default:
      return { ok: true, command: { ...base, data: { kind: 'other', deviceType: c.Device.Type } } };
  }
}
