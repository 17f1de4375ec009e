import {
  ACTIVE_STATES,
  type CommandState,
  OrderItemsRequestSchema,
  PaymentsRequestSchema,
  type TimeInterval,
} from '../connector/wire.js';
import { wireOrderItem, wirePayment } from './bill-wire.js';
import type { SimBillEntry } from './bills.js';
import { isTerminal, rejection, type SimCommand } from './commands.js';
import type { SimulatorCore } from './core.js';
import {
  BY_DEVICES_KEYS,
  BY_IDS_KEYS,
  DocAddKeyCutterSchema,
  DocCommandsByIdsSchema,
  DocUpdateSchema,
  fiscalByDevicesSchema,
  fiscalByIdsSchema,
} from './document.js';
import { inInterval, paginate, validate, withoutTokens } from './paging.js';
import { isFiscalKind, renderCommand, renderFiscalCommand } from './render.js';
import { wireDevice } from './world.js';

/**
 * The Connector API operations, one function each, over the simulator core. Each receives the
 * parsed body (tokens already checked) and returns the JSON answer, or throws a rejection
 * (`details.status` 400/403) that the HTTP layer turns into `{Message, RequestId}`.
 */

type Json = Record<string, unknown>;
export type Operation = (core: SimulatorCore, body: Json) => Json;

function checkEnterprises(core: SimulatorCore, ids: readonly string[] | null | undefined): void {
  const unknown = ids?.find((id) => !core.world.enterprise(id));
  if (unknown) throw rejection(400, `Invalid EnterpriseIds: no access to enterprise ${unknown}`);
}

/** Whether `commands/*` shows this command (fiscal ones only in the legacy option). */
function inCommands(core: SimulatorCore, command: SimCommand): boolean {
  return core.options.legacyFiscalInCommands || !isFiscalKind(command);
}

/**
 * `fiscalMachineCommands/getAll`: one of two mutually exclusive parameter sets, `EnterpriseIds`
 * (array or null) required in both when the rules say so — Part B › Endpoints ›
 * fiscalMachineCommands/getAll parameter sets. Null or absent means every enterprise of the token.
 */
const fiscalGetAll: Operation = (core, body) => {
  const { rules } = core.options;
  const rest = withoutTokens(body);
  const byIds = BY_IDS_KEYS.some((k) => k in rest);
  const byDevices = BY_DEVICES_KEYS.some((k) => k in rest);
  if (byIds && byDevices) {
    throw rejection(
      400,
      'Invalid CommandIds: give either CommandIds, or DeviceIds with States and UpdatedUtc',
    );
  }
  if (!byIds && !byDevices)
    throw rejection(
      400,
      'Invalid CommandIds: a filter (CommandIds, or DeviceIds with States and UpdatedUtc) is required',
    );
  let matches: (c: SimCommand) => boolean;
  let limitation: { Count: number; Cursor?: string | null | undefined };
  let enterpriseIds: string[] | null | undefined;
  if (byIds) {
    const f = validate(fiscalByIdsSchema(rules), body);
    const ids = new Set(f.CommandIds);
    matches = (c) => ids.has(c.id);
    limitation = f.Limitation;
    enterpriseIds = f.EnterpriseIds;
  } else {
    const f = validate(fiscalByDevicesSchema(rules), body);
    const devices = new Set(f.DeviceIds);
    const states: readonly CommandState[] = f.States;
    matches = (c) =>
      devices.has(c.deviceId) && states.includes(c.state) && inInterval(c.updatedAt, f.UpdatedUtc);
    limitation = f.Limitation;
    enterpriseIds = f.EnterpriseIds;
  }
  checkEnterprises(core, enterpriseIds);
  const page = paginate(
    core.store.newestFirst(),
    (c) => isFiscalKind(c) && (!enterpriseIds || enterpriseIds.includes(c.enterpriseId)) && matches(c),
    limitation,
    rules,
  );
  const ctx = core.renderContext;
  core.metrics.fiscalItemsListed(page.items.length);
  return { Commands: page.items.map((c) => renderFiscalCommand(c, ctx)), Cursor: page.cursor };
};

const getAllActive: Operation = (core) => {
  const ctx = core.renderContext;
  return {
    Commands: core.store
      .newestFirst()
      .filter((c) => ACTIVE_STATES.includes(c.state) && inCommands(core, c))
      .map((c) => renderCommand(c, ctx)),
  };
};

/** `commands/getAllByIds`: the active commands among the ids (Part B › Endpoints). */
const getAllByIds: Operation = (core, body) => {
  const request = validate(DocCommandsByIdsSchema, body);
  const ids = new Set(request.CommandIds);
  const page = paginate(
    core.store.newestFirst(),
    (c) => ids.has(c.id) && !isTerminal(c.state) && inCommands(core, c),
    request.Limitation,
    core.options.rules,
  );
  const ctx = core.renderContext;
  const out: Json = { Commands: page.items.map((c) => renderCommand(c, ctx)) };
  if (request.Limitation) out.Cursor = page.cursor;
  return out;
};

/**
 * `commands/addKeyCutter`: `EnterpriseId` required with portfolio access tokens, ignored otherwise
 * (Part B › Endpoints and › Authentication).
 */
const addKeyCutter: Operation = (core, body) => {
  const request = validate(DocAddKeyCutterSchema, body);
  const portfolio = core.options.scenario.platform.portfolio;
  if (portfolio && !request.EnterpriseId) {
    throw rejection(400, 'Invalid EnterpriseId: required with a portfolio access token');
  }
  if (request.EnterpriseId && portfolio) checkEnterprises(core, [request.EnterpriseId]);
  if (request.KeyCount < 1 || request.KeyCount > 100)
    throw rejection(400, 'Invalid KeyCount: from 1 to 100 keys per command');
  const device = core.world.device(request.KeyCutterId);
  if (!device) throw rejection(400, `Invalid KeyCutterId: no device ${request.KeyCutterId}`);
  if (device.type !== 'KeyCutter') {
    throw rejection(403, `The device "${device.name}" is not a key cutter; choose a key-cutter device.`);
  }
  if (!core.world.reservation(request.ReservationId)) {
    throw rejection(400, `Invalid ReservationId: no reservation ${request.ReservationId}`);
  }
  const command = core.createCommand(
    'keys',
    { deviceId: device.id, reservationId: request.ReservationId, keyCount: request.KeyCount },
    core.apiRng,
  );
  return { CommandId: command.id };
};

/**
 * `commands/update`: the command moves to the state given (Part B › States and transitions);
 * Progress is kept only with Processing, Notes only with Processed, Cancelled or Error.
 */
const update: Operation = (core, body) => {
  const request = validate(DocUpdateSchema, body);
  const change: { state: CommandState; progress?: number; notes?: string } = { state: request.State };
  if (request.Progress !== undefined && request.Progress !== null) change.progress = request.Progress;
  if (request.Notes !== undefined && request.Notes !== null) change.notes = request.Notes;
  core.agentUpdate(request.CommandId, change);
  return {};
};

/** `devices/getAll` (public docs: `connector-api/operations/devices.md`); fiscal machines as the rules list them. */
const devicesGetAll: Operation = (core) => ({
  Devices: core.world.devices.map((d) => {
    const out = wireDevice(d, false);
    if (d.type === 'FiscalMachine' && core.options.rules.fiscalDeviceType === 'Printer') out.Type = 'Printer';
    return out;
  }),
});

/** The filters of `orderItems/getAll` and `payments/getAll` that mean the same on an item and a payment. */
interface EntryFilter {
  BillIds?: string[] | undefined;
  AccountIds?: string[] | undefined;
  EnterpriseIds?: string[] | undefined;
  CreatedUtc?: TimeInterval | undefined;
  UpdatedUtc?: TimeInterval | undefined;
}

/** Whether a bill entry passes the shared filters (an absent one passes everything). */
function entryMatches(f: EntryFilter, e: SimBillEntry): boolean {
  return (
    (!f.BillIds || f.BillIds.includes(e.billId)) &&
    (!f.AccountIds || f.AccountIds.includes(e.accountId)) &&
    (!f.EnterpriseIds || f.EnterpriseIds.includes(e.enterpriseId)) &&
    inInterval(e.createdAt, f.CreatedUtc) &&
    inInterval(e.createdAt, f.UpdatedUtc)
  );
}

/** Refuses, as the platform does, a listing of accounting data with none of its filters given. */
function requireFilter<F extends object>(f: F, filters: readonly (keyof F)[], named: string): void {
  if (!filters.some((key) => f[key])) {
    throw rejection(400, `Invalid BillIds: a filter (${named}) is required`);
  }
}

const orderItemsGetAll: Operation = (core, body) => {
  const f = validate(OrderItemsRequestSchema, body);
  requireFilter(
    f,
    ['BillIds', 'AccountIds', 'OrderItemIds', 'CreatedUtc', 'UpdatedUtc'],
    'BillIds, AccountIds, OrderItemIds, CreatedUtc or UpdatedUtc',
  );
  checkEnterprises(core, f.EnterpriseIds);
  const page = paginate(
    core.ledger.allItems(),
    (i) => entryMatches(f, i) && (!f.OrderItemIds || f.OrderItemIds.includes(i.id)),
    f.Limitation,
    core.options.rules,
  );
  return { OrderItems: page.items.map((i) => wireOrderItem(i, core.ledger)), Cursor: page.cursor };
};

const paymentsGetAll: Operation = (core, body) => {
  const f = validate(PaymentsRequestSchema, body);
  requireFilter(
    f,
    [
      'PaymentIds',
      'BillIds',
      'AccountIds',
      'ReservationIds',
      'CreatedUtc',
      'UpdatedUtc',
      'ChargedUtc',
      'ClosedUtc',
      'SettlementUtc',
    ],
    'PaymentIds, BillIds, AccountIds, ReservationIds or a time interval',
  );
  checkEnterprises(core, f.EnterpriseIds);
  const page = paginate(
    core.ledger.allPayments(),
    (p) =>
      entryMatches(f, p) &&
      (!f.PaymentIds || f.PaymentIds.includes(p.id)) &&
      (!f.ReservationIds || (p.reservationId !== undefined && f.ReservationIds.includes(p.reservationId))) &&
      (!f.Currency || f.Currency === 'EUR') &&
      (!f.States || f.States.includes('Charged')) &&
      (!f.AccountingStates || f.AccountingStates.includes('Closed')) &&
      (!f.Type || f.Type === (p.grossCents > 0 ? 'Refund' : 'Payment')) &&
      inInterval(p.createdAt, f.ChargedUtc) &&
      inInterval(p.createdAt, f.ClosedUtc) &&
      !f.SettlementUtc,
    f.Limitation,
    core.options.rules,
  );
  return { Payments: page.items.map(wirePayment), Cursor: page.cursor };
};

/** Operation name (path after `/api/connector/v1/`, exact case) → handler. */
export const OPERATIONS: ReadonlyMap<string, Operation> = new Map<string, Operation>([
  ['fiscalMachineCommands/getAll', fiscalGetAll],
  ['commands/getAllActive', getAllActive],
  ['commands/getAllByIds', getAllByIds],
  ['commands/addKeyCutter', addKeyCutter],
  ['commands/update', update],
  ['devices/getAll', devicesGetAll],
  ['orderItems/getAll', orderItemsGetAll],
  ['payments/getAll', paymentsGetAll],
]);
