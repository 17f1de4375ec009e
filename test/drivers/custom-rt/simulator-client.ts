import { XMLParser } from 'fast-xml-parser';
import {
  type CustomRtSimulator,
  type CustomRtSimulatorOptions,
  startCustomRtSimulator,
} from '../../../drivers/custom-rt/simulator/index.js';
import { ManualClock } from '../../../src/clock.js';

/**
 * A minimal client for the simulator tests: posts hand-written request XML (the manual's worked
 * examples, research §7) and reads the answer with a plain XML parser. It is deliberately not the
 * Custom driver's code: the simulator is checked against the manual, never against our driver.
 */

export const SERIAL = 'STMTE501091';
/** 13 March 2026, 10:22:41 in Rome (UTC+1): the day of research §7's examples. */
export const EXAMPLE_DAY = Date.UTC(2026, 2, 13, 9, 22, 41);

export interface Answer {
  httpStatus: number;
  text: string;
  root: string;
  success: boolean;
  status: number;
  /** `addInfo`'s children (or infoResp's), text values as strings, nested nodes as objects. */
  info: Record<string, unknown>;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
});

export function parseAnswer(httpStatus: number, text: string): Answer {
  const doc = parser.parse(text) as Record<string, Record<string, unknown>>;
  const root = Object.keys(doc).find((k) => !k.startsWith('?')) ?? '';
  const top = doc[root] ?? {};
  const info = root === 'response' ? ((top.addInfo ?? {}) as Record<string, unknown>) : top;
  return {
    httpStatus,
    text,
    root,
    success: String(top['@success']).toLowerCase() === 'true',
    status: Number(top['@status']),
    info,
  };
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export async function post(
  sim: CustomRtSimulator,
  body: string,
  authorization: string | null = basic(SERIAL, SERIAL),
): Promise<Answer> {
  const res = await fetch(`${sim.url}/xml/printer.htm`, {
    method: 'POST',
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      ...(authorization ? { Authorization: authorization } : {}),
    },
    body: `<?xml version="1.0" encoding="utf-8"?>\n${body}`,
  });
  const text = await res.text();
  return res.status === 200 && text.startsWith('<?xml')
    ? parseAnswer(res.status, text)
    : { httpStatus: res.status, text, root: '', success: false, status: -1, info: {} };
}

export const receipt = (inner: string) => `<printerFiscalReceipt>${inner}</printerFiscalReceipt>`;
export const command = (inner: string) => `<printerCommand>${inner}</printerCommand>`;
export const report = (inner: string) => `<printerFiscalReport>${inner}</printerFiscalReport>`;
export const item = (
  description: string,
  unitPrice: number,
  idVat: number,
  quantity = 1000,
  department = 1,
) =>
  `<printRecItem description="${description}" unitPrice="${unitPrice}" department="${department}" idVat="${idVat}" quantity="${quantity}"></printRecItem>`;
export const payment = (amount: number, type = 1, description = 'CONTANTI') =>
  `<printRecTotal description="${description}" payment="${amount}" paymentType="${type}"></printRecTotal>`;
/** A whole sale: one line at 22% paid in cash. */
export const sale = (cents: number, id?: string) =>
  receipt(
    `<beginFiscalReceipt${id ? ` IdCmd="${id}B"` : ''}></beginFiscalReceipt>${item('CAFFE', cents, 1)}${payment(cents)}` +
      `<endFiscalReceipt${id ? ` IdCmd="${id}E"` : ''}></endFiscalReceipt>`,
  );

export async function startSim(
  options: CustomRtSimulatorOptions = {},
): Promise<{ sim: CustomRtSimulator; clock: ManualClock }> {
  const clock = new ManualClock(EXAMPLE_DAY);
  const sim = await startCustomRtSimulator({ host: '127.0.0.1', port: 0, clock, ...options });
  return { sim, clock };
}
