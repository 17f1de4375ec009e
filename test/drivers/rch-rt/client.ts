import { request } from 'node:http';
import { XMLParser } from 'fast-xml-parser';
import {
  type RchRtSimulator,
  type RchRtSimulatorOptions,
  startRchRtSimulator,
} from '../../../drivers/rch-rt/simulator/index.js';
import { ManualClock } from '../../../src/clock.js';

/**
 * A minimal web-service client for the simulator tests: it posts native commands wrapped as the
 * public clients wrap them (lyancoder/fiscal-printer `lib/printer/RCH/xml-RCH-http.ts`: one
 * `<cmd>` each inside `<Service>`, `Content-Type: application/xml`) and reads the answer with a
 * plain XML parser. It is not the RCH driver's code: the simulator answers to the sources, never
 * to our driver.
 */

/** 12 September 2026, 10:30 in Rome (UTC+2). */
export const DAY = Date.UTC(2026, 8, 12, 8, 30);
/** The same day as the reference commands write it (DDMMYY). */
export const DAY_REF = '120926';

export interface Answer {
  httpStatus: number;
  text: string;
  errorCode: number;
  lastCmd: number;
  busy: boolean;
  paperEnd: boolean;
  coverOpen: boolean;
  printerError: boolean;
  /** `<ECRStatus>`'s children, when the answer has one. */
  status?: Record<string, string>;
  /** `<Enq>` values by name. */
  enq: Record<string, string>;
  /** `<EJ>`'s text, when the answer has one. */
  journal?: string;
}

const parser = new XMLParser({
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => name === 'Enq',
});

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function serviceXml(commands: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Service>\n${commands
    .map((c) => `  <cmd>${escapeXml(c)}</cmd>\n`)
    .join('')}</Service>\n`;
}

export function parseAnswer(httpStatus: number, text: string): Answer {
  const service = (parser.parse(text) as { Service: Record<string, unknown> }).Service;
  const request = service.Request as Record<string, string>;
  const enq: Record<string, string> = {};
  for (const e of (service.Enq ?? []) as Array<{ name: string; value: string }>) enq[e.name] = e.value;
  return {
    httpStatus,
    text,
    errorCode: Number(request.errorCode),
    lastCmd: Number(request.lastCmd),
    busy: request.busy === '1',
    paperEnd: request.paperEnd === '1',
    coverOpen: request.coverOpen === '1',
    printerError: request.printerError === '1',
    ...(service.ECRStatus ? { status: service.ECRStatus as Record<string, string> } : {}),
    enq,
    ...(service.EJ !== undefined ? { journal: String(service.EJ) } : {}),
  };
}

/** POSTs a body with node:http (cheaper to start than the global fetch); rejects when the connection breaks. */
export function postRaw(
  url: string,
  body: string,
  signal?: AbortSignal,
): Promise<{ status: number; text: string; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/xml' }, signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            type: res.headers['content-type'],
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Posts the commands in one request; rejects when the connection breaks without an answer. */
export async function post(
  sim: RchRtSimulator,
  commands: readonly string[],
  signal?: AbortSignal,
): Promise<Answer> {
  const res = await postRaw(`${sim.url}/service.cgi`, serviceXml(commands), signal);
  return parseAnswer(res.status, res.text);
}

/** Posts each command in its own request, as optyker-web does; stops at the first refusal. */
export async function each(sim: RchRtSimulator, commands: readonly string[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const command of commands) {
    const a = await post(sim, [command]);
    answers.push(a);
    if (a.errorCode !== 0 || a.busy) break;
  }
  return answers;
}

export const status = async (sim: RchRtSimulator) => (await post(sim, ['<</?s'])).status ?? {};

/** A one-line sale at 22 % (department 1) paid in cash. */
export const sale = (cents: number, description = 'CAFFE') => [`=R1/$${cents}/(${description})`, '=T1'];

export async function startSim(
  options: RchRtSimulatorOptions = {},
): Promise<{ sim: RchRtSimulator; clock: ManualClock }> {
  const clock = new ManualClock(DAY);
  const sim = await startRchRtSimulator({ host: '127.0.0.1', port: 0, clock, ...options });
  return { sim, clock };
}
