import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { AgentError, unreadableFile } from '../errors.js';
import { formatIssues } from '../zod-issues.js';
import { DocumentRulesSchema } from './document.js';
import { FaultsSchema } from './fault-schema.js';

/**
 * A scenario describes the simulated property (enterprises, devices, rooms, reservations, known
 * receipts), the command generator and the faults. Every key is documented in
 * `config/scenarios/demo.yaml`. Unknown keys are refused so that a typo is an error, not a
 * silently ignored setting.
 */

const probability = z.number().min(0).max(1);
const id = z.string().min(1);
/** YAML reads `101` as a number; room numbers and receipt counters are strings on the wire. */
const text = z.union([z.string().min(1), z.number()]).transform(String);
const counter = z
  .union([z.string().regex(/^\d{1,4}$/), z.number().int().min(0).max(9999)])
  .transform((v) => String(v).padStart(4, '0'));
const settings = z.record(z.string(), z.unknown());

const deviceBase = {
  id,
  name: z.string().min(1),
  /** `Device.Identifier` on the wire. */
  identifier: z.string().min(1).optional(),
  /** Defaults to the first enterprise. */
  enterpriseId: id.optional(),
};

export const ScenarioDeviceSchema = z.discriminatedUnion('type', [
  z
    .object({
      ...deviceBase,
      type: z.literal('FiscalMachine'),
      /** `FiscalMachineId` (free string). */
      fiscalMachineId: z.string().min(1).default('FM-001'),
      /** `ApiUrl`: the printer's address the agent talks to. */
      apiUrl: z.string().min(1),
      /** The RT serial, used when a refund needs `PrinterSerialNumber` and the Notes had none. */
      serialNumber: z.string().regex(/^[A-Za-z0-9]+$/),
      /** `FiscalMachineData`, serialised as a JSON string. */
      settings: settings.default({}),
      /**
       * Whether generated commands may bring this printer a ready-made document (the simulator
       * writes fpmate XML, an Epson document). False for a printer of another family, such as a
       * Custom RT, which prints from the bill data and refuses a foreign document. A command
       * created for this device by id is made as asked.
       */
      payloads: z.boolean().default(true),
    })
    .strict(),
  z
    .object({
      ...deviceBase,
      type: z.literal('KeyCutter'),
      /** `KeyCutterId`: the encoder's id in the lock software. */
      keyCutterId: z.string().min(1),
      /** `ApiUrl`: the lock server address. */
      apiUrl: z.string().min(1).optional(),
      /** `KeyCutterData`, serialised as a JSON string. */
      settings: settings.default({ Type: 'Salto' }),
    })
    .strict(),
  z
    .object({
      ...deviceBase,
      type: z.literal('Printer'),
      printerName: z.string().min(1).optional(),
      driverName: z.string().default(''),
      portName: z.string().default(''),
    })
    .strict(),
  z.object({ ...deviceBase, type: z.literal('PaymentTerminal') }).strict(),
  z.object({ ...deviceBase, type: z.literal('PassportScanner') }).strict(),
]);
export type ScenarioDevice = z.infer<typeof ScenarioDeviceSchema>;

const EnterpriseSchema = z
  .object({
    id,
    name: z.string().min(1),
    timezone: z.string().default('Europe/Rome'),
  })
  .strict();

const RoomSchema = z.object({ number: text, lockIds: z.array(text).min(1).optional() }).strict();

const ReservationSchema = z
  .object({
    id: id.optional(),
    number: text.optional(),
    firstName: z.string().min(1).optional(),
    lastName: z.string().min(1),
    email: z.string().min(1).optional(),
    telephone: z.string().min(1).optional(),
    /** Room numbers (1..4); must exist in `rooms` when rooms are listed. */
    rooms: z.array(text).min(1).max(4),
    /** Local arrival date; default: today in the enterprise's time zone. */
    arrival: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    nights: z.number().int().min(1).max(60).default(2),
    enterpriseId: id.optional(),
  })
  .strict();

const ReceiptSchema = z
  .object({
    serialNumber: z.string().regex(/^[A-Za-z0-9]+$/),
    zNumber: counter,
    documentNumber: counter,
    dateTimeUtc: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO date-time'),
    deviceId: id.optional(),
  })
  .strict();

export const COMMAND_KINDS = [
  'fiscal-data',
  'fiscal-refund',
  'fiscal-payload',
  'keys',
  'printer',
  'payment-terminal',
] as const;
export type CommandKind = (typeof COMMAND_KINDS)[number];

const weight = z.number().min(0);
const GeneratorSchema = z
  .object({
    /** Default: true when `rate` > 0 or bursts are listed. */
    autostart: z.boolean().optional(),
    /** Commands per second, evenly spaced; 0 = none. */
    rate: z.number().min(0).max(1000).default(0),
    mix: z
      .object({
        fiscalData: weight.default(3),
        fiscalRefund: weight.default(1),
        fiscalPayload: weight.default(2),
        keys: weight.default(3),
        printer: weight.default(1),
        paymentTerminal: weight.default(0),
      })
      .strict()
      .prefault({}),
    /** Only these device ids; default every device of a suitable type. */
    devices: z.array(id).min(1).optional(),
    /** Commands created at start (and after a reset), before the first request. */
    backlog: z.number().int().min(0).max(100000).default(0),
    bursts: z
      .array(
        z
          .object({
            atSeconds: z.number().min(0),
            count: z.number().int().min(1).max(100000),
            everySeconds: z.number().positive().optional(),
          })
          .strict(),
      )
      .default([]),
    /** fpmate payloads wrapped in a SOAP 1.1 envelope, bare, or either at random. */
    payloadEnvelope: z.enum(['soap', 'bare', 'mixed']).default('mixed'),
  })
  .strict();
export type GeneratorSettings = z.infer<typeof GeneratorSchema>;

export const DEFAULT_ENTERPRISE_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

export const ScenarioSchema = z
  .object({
    name: z.string().optional(),
    seed: z.number().int().optional(),
    platform: z
      .object({
        clientToken: z.string().min(1).optional(),
        accessToken: z.string().min(1).optional(),
        legacyFiscalInCommands: z.boolean().default(true),
        portfolio: z.boolean().default(false),
        rateLimit: z
          .object({
            requests: z.number().int().min(1).default(200),
            windowSeconds: z.number().positive().default(30),
          })
          .strict()
          .prefault({}),
        otherEventRate: probability.default(0.1),
        /** Apply the interface document strictly: every `document` switch at its strict value. */
        strictDocument: z.boolean().default(false),
        /** Single switches of how the document is applied (see `document.ts`). */
        document: DocumentRulesSchema.default({}),
      })
      .strict()
      .prefault({}),
    enterprises: z
      .array(EnterpriseSchema)
      .min(1)
      .prefault([{ id: DEFAULT_ENTERPRISE_ID, name: 'Hotel Bellavista' }]),
    devices: z.array(ScenarioDeviceSchema).prefault([
      {
        id: 'd117866d-78de-4459-9077-42d7ea0120e3',
        type: 'FiscalMachine',
        name: 'RT Reception',
        fiscalMachineId: 'FM-001',
        apiUrl: 'http://127.0.0.1:8091',
        serialNumber: '99MEY123456',
      },
      {
        id: 'd14efcfd-75b9-4bd3-9f10-5657a01f860a',
        type: 'KeyCutter',
        name: 'Key cutter 1',
        keyCutterId: '1',
      },
      { id: '63efb573-fc58-4065-b687-9bdd51568529', type: 'Printer', name: 'Test Printer' },
    ]),
    /** Absent: three floors of ten rooms, each with one lock named after the room. */
    rooms: z.array(RoomSchema).min(1).optional(),
    reservations: z
      .object({
        generate: z.number().int().min(0).max(10000).default(20),
        list: z.array(ReservationSchema).default([]),
      })
      .strict()
      .prefault({}),
    receipts: z.array(ReceiptSchema).default([]),
    taxCodes: z.object({ '22': id, '10': id, '4': id, '0': id }).partial().strict().default({}),
    departments: z
      .object({
        '22': z.number().int(),
        '10': z.number().int(),
        '4': z.number().int(),
        '0': z.number().int(),
      })
      .partial()
      .strict()
      .default({}),
    generator: GeneratorSchema.prefault({}),
    faults: FaultsSchema.prefault({}),
  })
  .strict()
  .superRefine((s, ctx) => {
    const issue = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: 'custom', path, message });
    const enterprises = new Set(s.enterprises.map((e) => e.id));
    const devices = new Map<string, string>();
    s.devices.forEach((d, i) => {
      if (devices.has(d.id)) issue(['devices', i, 'id'], `duplicate device id ${d.id}`);
      devices.set(d.id, d.type);
      if (d.enterpriseId && !enterprises.has(d.enterpriseId))
        issue(['devices', i, 'enterpriseId'], `unknown enterprise ${d.enterpriseId}`);
    });
    s.generator.devices?.forEach((d, i) => {
      if (!devices.has(d)) issue(['generator', 'devices', i], `unknown device ${d}`);
    });
    s.receipts.forEach((r, i) => {
      if (r.deviceId && devices.get(r.deviceId) !== 'FiscalMachine')
        issue(['receipts', i, 'deviceId'], `${r.deviceId} is not a FiscalMachine device`);
    });
    const rooms = s.rooms ? new Set(s.rooms.map((r) => r.number)) : undefined;
    s.reservations.list.forEach((r, i) => {
      r.rooms.forEach((room, j) => {
        if (rooms && !rooms.has(room)) issue(['reservations', 'list', i, 'rooms', j], `unknown room ${room}`);
      });
      if (r.enterpriseId && !enterprises.has(r.enterpriseId))
        issue(['reservations', 'list', i, 'enterpriseId'], `unknown enterprise ${r.enterpriseId}`);
    });
  });

export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;

/**
 * Validates a scenario given as an object (already parsed YAML, or built by a test). Rejects with
 * CONFIG_INVALID listing every bad path (`generator.mix.keys: …`).
 */
export function validateScenario(document: unknown, source = 'scenario'): Scenario {
  const result = ScenarioSchema.safeParse(document ?? {});
  if (!result.success) {
    throw new AgentError('CONFIG_INVALID', `Invalid ${source}:\n${formatIssues(result.error)}`);
  }
  return result.data;
}

/** Parses scenario YAML. Rejects with CONFIG_INVALID (bad YAML, or bad keys naming the path). */
export function parseScenario(yamlText: string, source = 'scenario'): Scenario {
  let document: unknown;
  try {
    document = parseYaml(yamlText);
  } catch (e) {
    throw new AgentError('CONFIG_INVALID', `${source} is not valid YAML: ${(e as Error).message}`);
  }
  return validateScenario(document, source);
}

/** Reads and parses a scenario file. Rejects with CONFIG_INVALID naming the file. */
export function loadScenario(path: string): Scenario {
  let yamlText: string;
  try {
    yamlText = readFileSync(path, 'utf8');
  } catch (e) {
    throw unreadableFile(`scenario ${path}`, e);
  }
  return parseScenario(yamlText, `scenario ${path}`);
}
