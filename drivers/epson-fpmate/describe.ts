import type { Message } from '../../src/messages/message.js';
import { NATURE_PATTERN, parentNature } from '../fiscal-it/natures.js';
import { DEFAULT_PAYMENT_RULES } from '../fiscal-it/payments.js';
import { departmentTable, itemNatureTable } from '../fiscal-it/rules.js';
import { type EpsonFpmateOptions, FROM_PLATFORM } from './config.js';
import { fpmateEndpoint } from './http.js';
import { epsonDescribe as d } from './messages-describe.js';
import { EPSON_PAYMENT_CODES, type EpsonPaymentMapping } from './payment-codes.js';

/**
 * What an Epson RT configuration means, for `frontdesk-agent check-config`: the family and where it
 * prints (the fpmate endpoint, without query), every department the
 * driver prints in, with the VAT rate or nature it must carry on the printer (IT compares it with
 * the printer's programming), the natures given by item type, the payment types configured over
 * the built-in map, and the daily closure — one catalogue message per line.
 */
export function describeOptions(options: EpsonFpmateOptions): Message[] {
  const out: Message[] = [];
  const endpoint =
    options.url === FROM_PLATFORM
      ? d.fromPlatform({ hosts: { list: options.allowedHosts ?? [] } })
      : (() => {
          const url = fpmateEndpoint(options.url, options.devid, options.printerTimeoutMs);
          return `${url.origin}${url.pathname}`;
        })();
  out.push(d.family({ endpoint }));
  const byDepartment = new Map<number, Message[]>();
  for (const [key, department] of Object.entries(departmentTable(options))) {
    byDepartment.set(department, [...(byDepartment.get(department) ?? []), describeKey(key)]);
  }
  for (const [department, keys] of [...byDepartment.entries()].sort((a, b) => a[0] - b[0])) {
    out.push(d.department({ department, carries: { list: keys } }));
  }
  if (options.defaultDepartment !== undefined)
    out.push(d.defaultDepartment({ department: options.defaultDepartment }));
  else out.push(d.unclassifiedRefused());
  for (const [type, nature] of Object.entries(itemNatureTable(options)))
    out.push(d.itemNature({ type, nature }));
  for (const [type, rule] of Object.entries(options.payments))
    out.push(d.payment({ type, rule: describeRule(rule) }));
  const count = Object.keys(DEFAULT_PAYMENT_RULES).length;
  out.push(
    options.defaultPayment
      ? d.paymentsBuiltInOther({ count, rule: describeRule(options.defaultPayment) })
      : d.paymentsBuiltIn({ count }),
  );
  const closure = options.dailyClosure;
  out.push(
    closure.enabled
      ? d.closure({
          command: closure.command,
          at: closure.at,
          retry: closure.retryMinutes,
          hours: closure.retryForHours,
          onDayTooLong: closure.onDayTooLong,
        })
      : d.closureOff(),
  );
  return out;
}

const NATURE_WORDS: Record<string, () => Message> = {
  N1: d.N1,
  N2: d.N2,
  N3: d.N3,
  N4: d.N4,
  N5: d.N5,
  N6: d.N6,
};

/** What a department prints, in words: "VAT 22 %" or "nature N1 (EE, excluded (art. 15))". */
export function describeKey(key: string): Message {
  if (NATURE_PATTERN.test(key)) {
    const words = NATURE_WORDS[parentNature(key)];
    return words ? d.natureWithWords({ nature: key, words: words() }) : d.nature({ nature: key });
  }
  return d.vatRate({ rate: key });
}

/**
 * A payment rule in words: "kind electronic: paymentType 2, index 1 (PAGAMENTO ELETTRONICO)",
 * an Epson code as configured, or a deduction.
 */
export function describeRule(rule: EpsonPaymentMapping): Message {
  if ('deduct' in rule) return rule.deduct === 'deposit' ? d.ruleDeposit() : d.ruleVoucher();
  const code = 'kind' in rule ? EPSON_PAYMENT_CODES[rule.kind] : rule;
  const printed = rule.description
    ? d.rulePaymentNamed({ type: code.paymentType, index: code.index, description: rule.description })
    : d.rulePayment({ type: code.paymentType, index: code.index });
  return 'kind' in rule ? d.ruleKind({ kind: rule.kind, printed }) : printed;
}
