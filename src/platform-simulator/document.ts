import { z } from 'zod';
import { COMMAND_STATES } from '../connector/wire.js';

/**
 * What the simulated platform requires and what it sends, written from the platform's interface
 * document (`../shared/seed/platform-interfaces.md`, "the document"; sections are named as
 * `Part B › Endpoints › …`), never from the agent's client. Where the document leaves something
 * "not shown", the platform's public documentation (`MewsSystems/open-api-docs`) decides, and the
 * source is named.
 *
 * The rules are switches. `strictDocument` sets every switch to what the document requires or
 * allows at its least convenient for a client; without it the simulator keeps its historical
 * behaviour (each switch can still be set alone, in the scenario's `platform.document`).
 */

/** How the simulated platform applies the document. */
export interface DocumentRules {
  /**
   * `fiscalMachineCommands/getAll` requires `EnterpriseIds` (an array or null) in both parameter
   * sets: Part B › Endpoints › fiscalMachineCommands/getAll parameter sets. Off: it may be left out.
   */
  requireEnterpriseIds: boolean;
  /**
   * `CommandData.Discriminator` of fiscal commands, optional in the document (Part B › Resources ›
   * Fiscal machine command data, FiscalMachineAdditionalData): `present`, `absent` (no key),
   * `null`, or `mixed` (the three in turn, by command).
   */
  discriminator: 'present' | 'absent' | 'null' | 'mixed';
  /**
   * `Device.Type` under which fiscal commands are listed; `FiscalMachine` and `Printer` both occur
   * (Part B › Resources › Fiscal machine command data, `Device`). `mixed`: in turn, by command.
   */
  fiscalDeviceType: 'FiscalMachine' | 'Printer' | 'mixed';
  /**
   * The most items one page holds, whatever `Limitation.Count` asks: the upper bound of Count is
   * "not shown" (Part B › Limits), so a platform may cap it.
   */
  maxCount: number;
  /**
   * The response `Cursor` of a list: `last-item` is the id of the last returned item whenever
   * items are returned (Part B › Endpoints: "id of the last returned command"; the public
   * pagination guideline says it is null only when no data is returned:
   * `MewsSystems/open-api-docs:connector-api/guidelines/pagination.md`); `more-only` is null as
   * soon as nothing older matches.
   */
  cursor: 'last-item' | 'more-only';
  /**
   * `commands/update`: `any` moves any state to the state given (Part B › States and transitions:
   * "any command state → the state given in State"; permitted moves are "not shown"); `forward`
   * refuses (400) a move backwards or out of a terminal state, a rule the document never states.
   */
  updates: 'any' | 'forward';
}

export const LENIENT_RULES: DocumentRules = {
  requireEnterpriseIds: false,
  discriminator: 'present',
  fiscalDeviceType: 'FiscalMachine',
  maxCount: 1000,
  cursor: 'more-only',
  updates: 'forward',
};

/** Strict-document mode: everything the document requires, and the least convenient it allows. */
export const STRICT_RULES: DocumentRules = {
  requireEnterpriseIds: true,
  discriminator: 'mixed',
  fiscalDeviceType: 'mixed',
  maxCount: 7,
  cursor: 'last-item',
  updates: 'any',
};

/** `platform.document` of a scenario: single switches over the mode's defaults. */
export const DocumentRulesSchema = z
  .object({
    requireEnterpriseIds: z.boolean(),
    discriminator: z.enum(['present', 'absent', 'null', 'mixed']),
    fiscalDeviceType: z.enum(['FiscalMachine', 'Printer', 'mixed']),
    maxCount: z.number().int().min(1).max(1000),
    cursor: z.enum(['last-item', 'more-only']),
    updates: z.enum(['any', 'forward']),
  })
  .partial()
  .strict();

export function documentRules(strict: boolean, overrides: Partial<DocumentRules> = {}): DocumentRules {
  return { ...(strict ? STRICT_RULES : LENIENT_RULES), ...overrides };
}

/** Picks the `mixed` variant of a command by its sequence number (stable for the command). */
export function discriminatorFor(rules: DocumentRules, seq: number): 'present' | 'absent' | 'null' {
  if (rules.discriminator !== 'mixed') return rules.discriminator;
  return (['present', 'absent', 'null'] as const)[seq % 3] as 'present' | 'absent' | 'null';
}

export function fiscalDeviceTypeFor(rules: DocumentRules, seq: number): 'FiscalMachine' | 'Printer' {
  if (rules.fiscalDeviceType !== 'mixed') return rules.fiscalDeviceType;
  return seq % 2 === 0 ? 'Printer' : 'FiscalMachine';
}

// ---------------------------------------------------------------------------------------------
// Requests, as the document states them. Every body also carries ClientToken, AccessToken and
// Client (Part B › Endpoints), checked before these. Unknown fields are ignored: the public docs
// let every operation take `LanguageCode` and `CultureCode`
// (`MewsSystems/open-api-docs:connector-api/guidelines/requests.md`).

//
// Where the document leaves a bound open the simulator errs on the strict side (a required id
// array must hold an id, Progress is not negative): a client that passes here passes a laxer
// platform too. The one refusal it never adds is one that would hide what the real platform
// does with a request the client relies on (`updates: 'any'`).

const id = z.string().min(1);
/** Required, "max 1000 items" (Part B › Limits: identifier arrays in filters). */
const ids = (max: number) => z.array(id).min(1).max(max);
const utc = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not an ISO 8601 date-time');

/** At most 3 (calendar) months from its start (Part B › Limits). */
function withinThreeMonths(interval: { StartUtc: string; EndUtc: string }): boolean {
  const limit = new Date(interval.StartUtc);
  limit.setUTCMonth(limit.getUTCMonth() + 3);
  return Date.parse(interval.EndUtc) <= limit.getTime();
}

/**
 * Limitation: `Count` (integer) and optional `Cursor` (Part B › Resources › Common types). The
 * bounds of Count are not shown there; 1..1000 is the public pagination guideline's
 * (`MewsSystems/open-api-docs:connector-api/guidelines/pagination.md`).
 */
export const DocLimitationSchema = z.object({
  Count: z.number().int().min(1).max(1000),
  Cursor: z.string().min(1).nullish(),
});

/** Time interval (Part B › Common types), at most 3 months long (Part B › Limits). */
export const DocIntervalSchema = z
  .object({ StartUtc: utc, EndUtc: utc })
  .refine((v) => Date.parse(v.EndUtc) >= Date.parse(v.StartUtc), 'EndUtc must not precede StartUtc')
  .refine(withinThreeMonths, 'at most 3 months long');

/** "array or null, required, max 1000" (Part B › Endpoints › … parameter sets). */
const enterpriseIds = (required: boolean) =>
  required ? z.array(id).max(1000).nullable() : z.array(id).max(1000).nullable().optional();

const byIds = (required: boolean) =>
  z.object({
    CommandIds: ids(1000),
    EnterpriseIds: enterpriseIds(required),
    Limitation: DocLimitationSchema,
  });
const byDevices = (required: boolean) =>
  z.object({
    DeviceIds: ids(100),
    States: z.array(z.enum(COMMAND_STATES)),
    UpdatedUtc: DocIntervalSchema,
    EnterpriseIds: enterpriseIds(required),
    Limitation: DocLimitationSchema,
  });
const BY_IDS = { required: byIds(true), optional: byIds(false) };
const BY_DEVICES = { required: byDevices(true), optional: byDevices(false) };

/** Part B › Endpoints › fiscalMachineCommands/getAll parameter sets, 1: by identifiers. */
export function fiscalByIdsSchema(rules: DocumentRules): ReturnType<typeof byIds> {
  return rules.requireEnterpriseIds ? BY_IDS.required : BY_IDS.optional;
}

/** Part B › Endpoints › fiscalMachineCommands/getAll parameter sets, 2: by device and state. */
export function fiscalByDevicesSchema(rules: DocumentRules): ReturnType<typeof byDevices> {
  return rules.requireEnterpriseIds ? BY_DEVICES.required : BY_DEVICES.optional;
}

/** The keys that belong to one set only (the two sets are mutually exclusive). */
export const BY_IDS_KEYS = ['CommandIds'] as const;
export const BY_DEVICES_KEYS = ['DeviceIds', 'States', 'UpdatedUtc'] as const;

/** Part B › Endpoints: `commands/getAllByIds`. */
export const DocCommandsByIdsSchema = z.object({
  CommandIds: ids(1000),
  Limitation: DocLimitationSchema.optional(),
});

/** Part B › Endpoints: `commands/addKeyCutter`. */
export const DocAddKeyCutterSchema = z.object({
  EnterpriseId: id.nullish(),
  KeyCutterId: id,
  ReservationId: id,
  KeyCount: z.number().int(),
});

/** Part B › Endpoints: `commands/update`. */
export const DocUpdateSchema = z.object({
  CommandId: id,
  State: z.enum(COMMAND_STATES),
  Progress: z.number().min(0).nullish(),
  Notes: z.string().nullish(),
});
