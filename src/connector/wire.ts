import { z } from 'zod';

/**
 * Wire schemas of the platform's Connector API as the client (`src/connector/client.ts`) sends
 * and reads it. The platform simulator checks the operations of the interface document against
 * its own schemas, written from the document (`src/platform-simulator/document.ts`), so neither side can
 * only confirm the other's assumptions; it still borrows the order-item and payment ones, which
 * the document does not describe.
 *
 * Rules: required fields are enforced, unknown fields are tolerated (zod objects strip them),
 * optional fields accept `null` as well as absence (the platform sends both). Request schemas
 * encode the documented limits so that a request outside them is refused before it is sent.
 */

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

export const COMMAND_STATES = [
  'Pending',
  'Received',
  'Processing',
  'Processed',
  'Cancelled',
  'Error',
] as const;
export const CommandStateSchema = z.enum(COMMAND_STATES);
export type CommandState = z.infer<typeof CommandStateSchema>;
export const TERMINAL_STATES: readonly CommandState[] = ['Processed', 'Cancelled', 'Error'];
export const ACTIVE_STATES: readonly CommandState[] = ['Pending', 'Received'];

export const DEVICE_TYPES = [
  'Printer',
  'PaymentTerminal',
  'KeyCutter',
  'FiscalMachine',
  'PassportScanner',
] as const;

/** Device types stay free strings on the wire: an unknown type is "not mine", never a crash. */
export const DeviceSchema = z.object({
  Id: z.string().min(1),
  Type: z.string(),
  Name: z.string(),
  Identifier: nullish(z.string()),
});
export type WireDevice = z.infer<typeof DeviceSchema>;

export const UtcInstantSchema = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'Invalid date-time');

// ---------------------------------------------------------------------------------------------
// Requests

export const TokensSchema = z.object({
  ClientToken: z.string().min(1),
  AccessToken: z.string().min(1),
  Client: z.string().min(1),
});
export type Tokens = z.infer<typeof TokensSchema>;

export const LimitationSchema = z.object({
  Count: z.number().int().min(1).max(1000),
  Cursor: nullish(z.string().min(1)),
});

const ids = (max: number) => z.array(z.string().min(1)).min(1).max(max);

const THREE_MONTHS_MS = 92 * 24 * 3600 * 1000;
/** Start inclusive, end exclusive, at most three months long. */
export const TimeIntervalSchema = z
  .object({ StartUtc: UtcInstantSchema, EndUtc: UtcInstantSchema })
  .refine((v) => Date.parse(v.EndUtc) >= Date.parse(v.StartUtc), 'EndUtc must not precede StartUtc');
export type TimeInterval = z.infer<typeof TimeIntervalSchema>;

export function monthsBetweenOk(interval: TimeInterval): boolean {
  const start = new Date(interval.StartUtc);
  const limit = new Date(start);
  limit.setUTCMonth(limit.getUTCMonth() + 3);
  return Date.parse(interval.EndUtc) <= Math.min(limit.getTime(), start.getTime() + THREE_MONTHS_MS);
}

/**
 * `EnterpriseIds` of `fiscalMachineCommands/getAll`: required in both parameter sets, an array or
 * `null` (every enterprise of the token) — platform-interfaces.md, Part B › Endpoints ›
 * fiscalMachineCommands/getAll parameter sets. The key is always sent.
 */
export const FiscalEnterpriseIdsSchema = ids(1000).nullable();

export const FiscalCommandsByIdsSchema = z.object({
  CommandIds: ids(1000),
  EnterpriseIds: FiscalEnterpriseIdsSchema,
  Limitation: LimitationSchema,
});
export const FiscalCommandsByDevicesSchema = z.object({
  DeviceIds: ids(100),
  States: z.array(CommandStateSchema).min(1),
  UpdatedUtc: TimeIntervalSchema.refine(monthsBetweenOk, 'UpdatedUtc must be at most 3 months long'),
  EnterpriseIds: FiscalEnterpriseIdsSchema,
  Limitation: LimitationSchema,
});
/** `fiscalMachineCommands/getAll`: exactly one of the two filter sets. */
export const FiscalCommandsGetAllRequestSchema = z
  .union([FiscalCommandsByIdsSchema.strict(), FiscalCommandsByDevicesSchema.strict()])
  .describe('exactly one filter set: CommandIds, or DeviceIds + States + UpdatedUtc');
/**
 * A filter as callers give it: `EnterpriseIds` may be left out, the client then sends the
 * configured ones, or `null` when none are configured.
 */
export type FiscalCommandsFilter =
  | WithOptionalEnterprises<z.input<typeof FiscalCommandsByIdsSchema>>
  | WithOptionalEnterprises<z.input<typeof FiscalCommandsByDevicesSchema>>;
type WithOptionalEnterprises<T> = Omit<T, 'EnterpriseIds'> & { EnterpriseIds?: string[] | null };

export const CommandsByIdsRequestSchema = z.object({
  CommandIds: ids(1000),
  Limitation: LimitationSchema.optional(),
});
export const AddKeyCutterRequestSchema = z.object({
  KeyCutterId: z.string().min(1),
  ReservationId: z.string().min(1),
  KeyCount: z.number().int().min(1),
  EnterpriseId: z.string().min(1).optional(),
});
export type AddKeyCutterRequest = z.infer<typeof AddKeyCutterRequestSchema>;

export const CommandUpdateRequestSchema = z.object({
  CommandId: z.string().min(1),
  State: CommandStateSchema,
  Progress: z.number().min(0).optional(),
  Notes: z.string().optional(),
});
export type CommandUpdateRequest = z.infer<typeof CommandUpdateRequestSchema>;

/** `orderItems/getAll` and `payments/getAll` filters the agent uses (plus the docs' sample ones). */
export const OrderItemsRequestSchema = z.object({
  BillIds: ids(1000).optional(),
  AccountIds: ids(1000).optional(),
  OrderItemIds: ids(1000).optional(),
  CreatedUtc: TimeIntervalSchema.optional(),
  UpdatedUtc: TimeIntervalSchema.optional(),
  EnterpriseIds: ids(1000).optional(),
  Limitation: LimitationSchema,
});
export const PaymentsRequestSchema = z.object({
  PaymentIds: ids(1000).optional(),
  AccountIds: ids(1000).optional(),
  BillIds: ids(1000).optional(),
  ReservationIds: ids(1000).optional(),
  CreatedUtc: TimeIntervalSchema.optional(),
  UpdatedUtc: TimeIntervalSchema.optional(),
  ChargedUtc: TimeIntervalSchema.optional(),
  ClosedUtc: TimeIntervalSchema.optional(),
  SettlementUtc: TimeIntervalSchema.optional(),
  Currency: z.string().optional(),
  AccountingStates: z.array(z.string()).optional(),
  States: z.array(z.string()).optional(),
  Type: z.string().optional(),
  EnterpriseIds: ids(1000).optional(),
  Limitation: LimitationSchema,
});
export type OrderItemsFilter = Omit<z.input<typeof OrderItemsRequestSchema>, 'Limitation'>;
export type PaymentsFilter = Omit<z.input<typeof PaymentsRequestSchema>, 'Limitation'>;

// ---------------------------------------------------------------------------------------------
// Responses

export const ErrorBodySchema = z.object({
  Message: z.string().default(''),
  RequestId: nullish(z.string()),
  Details: z.unknown().optional(),
});

export const UserSchema = z
  .object({
    FirstName: nullish(z.string()),
    LastName: nullish(z.string()),
    ImageUrl: nullish(z.string()),
    Discriminator: nullish(z.string()),
  })
  .loose();

export const KeyCutterDataSchema = z.object({
  KeyCount: z.number().int().min(1).max(100),
  LockIds: z.array(z.string()),
  StartUtc: UtcInstantSchema,
  EndUtc: UtcInstantSchema,
  LastName: z.string(),
  FirstName: nullish(z.string()),
  NormalizedFirstName: nullish(z.string()),
  NormalizedLastName: nullish(z.string()),
  Telephone: nullish(z.string()),
  Email: nullish(z.string()),
  ReservationId: nullish(z.string()),
  ReservationNumber: nullish(z.string()),
  KeyCutterId: nullish(z.string()),
  ApiUrl: nullish(z.string()),
  KeyCutterData: nullish(z.string()),
});

export const PrinterDataSchema = z.object({
  CopyCount: z.number().int().min(0),
  FileType: z.string(),
  FileData: z.string(),
  PrinterName: z.string(),
  PrinterDriverName: nullish(z.string()),
  PrinterPortName: nullish(z.string()),
});

export const CurrencyValueSchema = z.object({
  Currency: z.string(),
  NetValue: nullish(z.number()),
  GrossValue: nullish(z.number()),
  Value: nullish(z.number()),
  TaxValues: nullish(z.array(z.object({ Code: nullish(z.string()), Value: z.number() }))),
  /**
   * The tax per rate (open-api-docs `_objects.md`, Amount › Tax breakdown): on a deposit payment,
   * the VAT it was receipted at, which the fiscal core deducts it at.
   */
  Breakdown: nullish(
    z.object({
      Items: z.array(
        z.object({ TaxRateCode: nullish(z.string()), NetValue: z.number(), TaxValue: z.number() }),
      ),
    }),
  ),
});
export type CurrencyValue = z.infer<typeof CurrencyValueSchema>;

/** A line of a legacy bill (`Revenue` / `Payments` accounting items). */
export const LegacyBillItemSchema = z.object({
  Id: nullish(z.string()),
  Name: nullish(z.string()),
  Type: nullish(z.string()),
  Notes: nullish(z.string()),
  UnitCount: nullish(z.number()),
  UnitAmount: nullish(CurrencyValueSchema),
  Amount: CurrencyValueSchema,
  CanceledUtc: nullish(z.string()),
});

/**
 * Associated account bill data (open-api-docs `connector-api/operations/bills.md`): the customer
 * or company a bill was closed for, persisted when the bill was closed. The fiscal core reads the
 * customer's Italian lottery code from its `LegalIdentifiers` (`ItLotteryCode`, `accounts.md`
 * "Customer legal identifiers"; the older `ItalianLotteryCode` of bill customer data is
 * "retrievable in LegalIdentifiers", `deprecations/README.md`). Older bills wrap the data in
 * `Value` (bill owner data). A shape it cannot read counts as absent, never as a malformed command.
 */
const BillPartySchema = z.object({
  LegalIdentifiers: nullish(z.record(z.string(), z.string().nullable())),
  TaxIdentifier: nullish(z.string()),
});
export const BillAccountDataSchema = z.object({
  Discriminator: nullish(z.string()),
  BillCustomerData: nullish(BillPartySchema),
  BillCompanyData: nullish(BillPartySchema),
  Value: nullish(BillPartySchema),
});
export type WireBillAccountData = z.infer<typeof BillAccountDataSchema>;
const lenientAccountData = nullish(BillAccountDataSchema).catch(undefined);

export const BillSchema = z.object({
  Id: z.string().min(1),
  Name: nullish(z.string()),
  Number: nullish(z.string()),
  State: nullish(z.string()),
  Type: nullish(z.string()),
  EnterpriseId: nullish(z.string()),
  AccountId: nullish(z.string()),
  IssuedUtc: nullish(z.string()),
  CreatedUtc: nullish(z.string()),
  /** `Bill` or `CorrectiveBill`. */
  CorrectionState: nullish(z.string()),
  /** For a corrective bill: `Cancellation`, `Edit`, `CreditNote` … */
  CorrectionType: nullish(z.string()),
  CorrectedBillId: nullish(z.string()),
  /** `Customer` or `Company`: whom the bill is issued to. */
  AccountType: nullish(z.string()),
  /** The bill's owner (bill version 2025-06-23: `Owner`; older bills: `OwnerData`). */
  Owner: lenientAccountData,
  OwnerData: lenientAccountData,
  /** Legacy bills may still carry their items. */
  Revenue: nullish(z.array(LegacyBillItemSchema)),
  Payments: nullish(z.array(LegacyBillItemSchema)),
});
export type WireBill = z.infer<typeof BillSchema>;

export const ItalianFiscalDataSchema = z.object({
  IsRefund: z.boolean(),
  RebatedReceiptNumber: nullish(z.string()),
  RebatedReceiptSequence: nullish(z.string()),
  RebatedReceiptDateTimeUtc: nullish(UtcInstantSchema),
  PrinterSerialNumber: nullish(z.string()),
});

/**
 * FiscalMachineAdditionalData: `Discriminator` is optional (absent or null): the shape is then told
 * by which object is present (platform-interfaces.md, Part B › Resources › Fiscal machine command
 * data; see `normalizeFiscalMachineCommand`).
 */
export const FiscalCommandDataSchema = z.object({
  Discriminator: nullish(z.string()),
  ItalianFiscalMachineData: nullish(ItalianFiscalDataSchema),
  ItalianFiscalMachinePayload: nullish(z.object({ Payload: z.string() })),
});

/** An item of `fiscalMachineCommands/getAll` (flat shape, bill version 2025-06-23). */
export const FiscalMachineCommandSchema = z.object({
  Id: z.string().min(1),
  State: CommandStateSchema,
  CreatedUtc: UtcInstantSchema,
  Creator: nullish(UserSchema),
  FiscalMachineId: nullish(z.string()),
  ApiUrl: nullish(z.string()),
  FiscalMachineData: nullish(z.string()),
  TaxIdentifier: nullish(z.string()),
  Device: DeviceSchema,
  Bill: BillSchema,
  CommandData: nullish(FiscalCommandDataSchema),
});
export type WireFiscalMachineCommand = z.infer<typeof FiscalMachineCommandSchema>;

/** `Data` of a FiscalMachine command in `commands/*` (legacy shape). */
export const LegacyFiscalDataSchema = z.object({
  FiscalMachineId: nullish(z.string()),
  ApiUrl: nullish(z.string()),
  FiscalMachineData: nullish(z.string()),
  Bill: BillSchema,
  TaxIdentifier: nullish(z.string()),
  BillFiscalMachineData: nullish(
    z.object({ Discriminator: nullish(z.string()), Value: nullish(ItalianFiscalDataSchema) }),
  ),
  PayloadData: nullish(z.object({ Discriminator: nullish(z.string()), Value: nullish(z.string()) })),
});

/**
 * An item of `commands/getAllActive` / `getAllByIds`. `Data` stays unknown here: its shape depends
 * on `Device.Type` and is checked per type by the normaliser, so one malformed command does not
 * sink the whole response.
 */
export const CommandSchema = z.object({
  Id: z.string().min(1),
  State: CommandStateSchema,
  CreatedUtc: UtcInstantSchema,
  Creator: nullish(UserSchema),
  Device: DeviceSchema,
  Data: z.unknown(),
});

/** Envelope of a list response: items are validated one by one by the normaliser. */
export const CommandListResponseSchema = z.object({ Commands: z.array(z.unknown()) });
export const FiscalCommandListResponseSchema = z.object({
  Commands: z.array(z.unknown()),
  Cursor: nullish(z.string()),
});
export const AddCommandResponseSchema = z.object({ CommandId: z.string().min(1) });
export const EmptyResponseSchema = z.object({}).loose();
export const DevicesResponseSchema = z.object({ Devices: z.array(DeviceSchema) });

export const OrderItemSchema = z.object({
  Id: z.string().min(1),
  BillId: nullish(z.string()),
  AccountId: nullish(z.string()),
  EnterpriseId: nullish(z.string()),
  AccountingCategoryId: nullish(z.string()),
  UnitCount: z.number(),
  UnitAmount: CurrencyValueSchema,
  Amount: CurrencyValueSchema,
  Type: nullish(z.string()),
  Notes: nullish(z.string()),
  RevenueType: nullish(z.string()),
  CanceledUtc: nullish(z.string()),
  CreatedUtc: nullish(z.string()),
  /** `BillingName`: the item's name for billing, when the platform has one. */
  BillingName: nullish(z.string()),
  /** Why the item carries no tax (`IT_N1`, `IT_N2_2`, `IT_N4` …): the fiscal driver's VAT nature. */
  TaxExemptionReason: nullish(z.string()),
});
export type WireOrderItem = z.infer<typeof OrderItemSchema>;
export const OrderItemsResponseSchema = z.object({
  OrderItems: z.array(OrderItemSchema),
  Cursor: nullish(z.string()),
});

const PaymentSubtypeSchema = nullish(z.object({ Type: nullish(z.string()) }));
export const PaymentDataSchema = z.object({
  Discriminator: nullish(z.string()),
  External: PaymentSubtypeSchema,
  Alternative: PaymentSubtypeSchema,
  Invoice: PaymentSubtypeSchema,
});

export const PaymentSchema = z.object({
  Id: z.string().min(1),
  BillId: nullish(z.string()),
  AccountId: nullish(z.string()),
  EnterpriseId: nullish(z.string()),
  Amount: CurrencyValueSchema,
  Type: z.string(),
  Kind: nullish(z.string()),
  State: z.string(),
  Notes: nullish(z.string()),
  CreatedUtc: nullish(z.string()),
  /**
   * What kind of external, alternative or invoice payment it is (`External.Type` `Voucher`,
   * `DepositCash` …): the fiscal driver maps it to the printer's payment type.
   */
  Data: nullish(PaymentDataSchema),
});
export type WirePayment = z.infer<typeof PaymentSchema>;
export const PaymentsResponseSchema = z.object({
  Payments: z.array(PaymentSchema),
  Cursor: nullish(z.string()),
});

// ---------------------------------------------------------------------------------------------
// WebSocket

export const WsEventSchema = z
  .object({ Type: z.string(), Id: nullish(z.string()), State: nullish(z.string()) })
  .loose();
export const WsMessageSchema = z.object({ Events: z.array(WsEventSchema) });
