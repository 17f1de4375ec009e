import type { Message } from '../../src/messages/message.js';
import { PAYMENT_KINDS } from '../fiscal-it/payments.js';
import { FROM_PLATFORM } from '../fiscal-it/rt/address.js';
import { departmentTable } from '../fiscal-it/rules.js';
import { paymentsOf, type RchRtOptions } from './config.js';
import { rchDescribe as d } from './messages-describe.js';
import { RCH_PAYMENT_FORMS } from './payment-forms.js';

/**
 * What an RCH configuration means, for `frontdesk-agent check-config`: where it prints and which
 * key the journal is read under, every department with what it carries, the payment forms
 * configured by number, the kinds without a form, the daily closure.
 */
export function describeOptions(options: RchRtOptions): Message[] {
  const endpoint =
    options.url === FROM_PLATFORM
      ? d.fromPlatform({ hosts: { list: options.allowedHosts ?? [] } })
      : `${new URL(options.url).origin}/service.cgi`;
  const out: Message[] = [d.family({ endpoint, key: options.journalKey })];
  const byDepartment = new Map<number, string[]>();
  for (const [key, department] of Object.entries(departmentTable(options))) {
    byDepartment.set(department, [
      ...(byDepartment.get(department) ?? []),
      /^N/.test(key) ? key : `${key} %`,
    ]);
  }
  for (const [department, keys] of [...byDepartment].sort((a, b) => a[0] - b[0]))
    out.push(d.department({ department, carries: { list: keys } }));
  for (const [type, form] of Object.entries(paymentsOf(options).codes)) out.push(d.payment({ type, form }));
  for (const kind of PAYMENT_KINDS)
    if (RCH_PAYMENT_FORMS[kind] === undefined) out.push(d.paymentNone({ kind }));
  const closure = options.dailyClosure;
  out.push(closure.enabled ? d.closure({ at: closure.at }) : d.closureOff());
  return out;
}
