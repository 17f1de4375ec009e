import { departmentTable, type EpsonFpmateOptions, itemNatureTable } from './config.js';
import { describeKey } from './natures.js';
import { DEFAULT_PAYMENT_RULES, describeRule } from './payment-types.js';

/**
 * What an Epson RT configuration means, for `frontdesk-agent check-config`: every department the
 * driver prints in, with the VAT rate or nature it must carry on the printer (IT compares it with
 * the printer's programming), the natures given by item type, the payment types configured over
 * the built-in map, and the daily closure.
 */
export function describeOptions(options: EpsonFpmateOptions): string[] {
  const out: string[] = [];
  const byDepartment = new Map<number, string[]>();
  for (const [key, department] of Object.entries(departmentTable(options))) {
    byDepartment.set(department, [...(byDepartment.get(department) ?? []), describeKey(key)]);
  }
  for (const [department, keys] of [...byDepartment.entries()].sort((a, b) => a[0] - b[0])) {
    out.push(`department ${department}: ${keys.join(' and ')}`);
  }
  if (options.defaultDepartment !== undefined)
    out.push(`department ${options.defaultDepartment}: lines the agent cannot classify`);
  else out.push('lines the agent cannot classify: refused, nothing printed');
  for (const [type, nature] of Object.entries(itemNatureTable(options)))
    out.push(`items of type or category ${type}: nature ${nature}`);
  for (const [type, rule] of Object.entries(options.payments))
    out.push(`payment ${type}: ${describeRule(rule)}`);
  out.push(
    `payments: ${Object.keys(DEFAULT_PAYMENT_RULES).length} platform payment types built in (README)${options.defaultPayment ? `, any other: ${describeRule(options.defaultPayment)}` : ', any other refused'}`,
  );
  const closure = options.dailyClosure;
  out.push(
    closure.enabled
      ? `daily closure: ${closure.command} at ${closure.at} local time, retried every ${closure.retryMinutes} min for ${closure.retryForHours} h; day open too long: ${closure.onDayTooLong}`
      : 'daily closure: off (run the Z report on the printer every day)',
  );
  return out;
}
