import type { Message } from '../../src/messages/message.js';
import { PAYMENT_KINDS } from '../fiscal-it/payments.js';
import { departmentTable } from '../fiscal-it/rules.js';
import { type CustomRtOptions, FROM_PLATFORM, paymentsOf, vatSlotTable } from './config.js';
import { customDescribe as d } from './messages-describe.js';
import { CUSTOM_PAYMENT_CODES } from './payment-codes.js';

/**
 * What a Custom configuration means, for `frontdesk-agent check-config`: the family and where it
 * prints (never the password), every department with what it carries, the VAT slots `idVat`
 * names, the payment numbers, the daily closure.
 */
export function describeOptions(options: CustomRtOptions): Message[] {
  const out: Message[] = [];
  const endpoint =
    options.url === FROM_PLATFORM
      ? d.fromPlatform({ hosts: { list: options.allowedHosts ?? [] } })
      : `${new URL(options.url).origin}/xml/printer.htm`;
  const account = options.credentials
    ? d.accountUser({ user: options.credentials.user })
    : options.credentialsFile
      ? d.accountFile({ file: options.credentialsFile })
      : d.accountSerial();
  out.push(d.family({ endpoint, account }));
  const byDepartment = new Map<number, string[]>();
  for (const [key, department] of Object.entries(departmentTable(options))) {
    byDepartment.set(department, [
      ...(byDepartment.get(department) ?? []),
      /^N/.test(key) ? key : `${key} %`,
    ]);
  }
  for (const [department, keys] of [...byDepartment.entries()].sort((a, b) => a[0] - b[0]))
    out.push(d.department({ department, carries: { list: keys } }));
  for (const [rate, slot] of Object.entries(vatSlotTable(options))) out.push(d.vatSlot({ rate, slot }));
  for (const [type, code] of Object.entries(paymentsOf(options).codes)) out.push(d.payment({ type, code }));
  for (const kind of PAYMENT_KINDS)
    if (CUSTOM_PAYMENT_CODES[kind] === undefined) out.push(d.paymentNone({ kind }));
  const closure = options.dailyClosure;
  out.push(closure.enabled ? d.closure({ command: closure.command, at: closure.at }) : d.closureOff());
  return out;
}
