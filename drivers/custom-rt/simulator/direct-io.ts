import { digits } from './attrs.js';
import type { Exchange, PrinterState } from './state.js';
import { CustomRefusal, ST } from './types.js';
import { cents9, four } from './xml.js';

/**
 * `directIO` (XML p.47): a native Custom command, `command` its 4 digits, `data` the rest. The
 * native answer is the 4-byte echo of the command followed by the data (DIO p.20, and bytes 0–3
 * of every answer table); the simulator keeps that echo in `responseBuf` and names the command in
 * `lastRawCommand` (XML p.26). The commands modelled:
 *
 * - 1001 date and time, DDMMYYHHmm (DIO p.23);
 * - 1017 last receipt (DIO p.40): DDMMYY HHmm, number (4), total (9, cents), type (1: 0
 *   non-fiscal, 1 fiscal), status (1: 0 closed, 1 cancelled) — 29 characters with the echo, 25
 *   without (fault `dio1017NoEcho`, the layout fiskaltrust `CustomRTPrinterSCU.GetLastFiscalDocAsync`
 *   parses from offset 0). No Z number: there is none in the layout;
 * - 1104 last closure: number of the last Z done (4) and the EJ number (4) (DIO p.54);
 * - 1106 / 1107 date and time of the last closure / last fiscal receipt, DDMMYYHHmmss (pp.56–57);
 * - 1514 with DOCTIPO 0: closures sent but failed (4), waiting to be sent (4), exported (4) (p.81);
 * - 1530 the 24-hour alarm: F_EXPIRING and F_EXPIRED, both 1 once the day has been open 24 hours
 *   (p.96; the warning-only state 1/0 is not modelled).
 *
 * Any other command is refused with 3.
 */
export function directIo(p: PrinterState, ex: Exchange, a: Record<string, string>): void {
  const command = a.command ?? '';
  ex.rawCommand = command;
  const data = a.data ?? '';
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = (at: number | undefined, seconds: boolean) => {
    if (at === undefined) return '0'.repeat(seconds ? 12 : 10);
    const t = p.local(at);
    const base = `${two(t.day)}${two(t.month)}${two(t.year % 100)}${two(t.hour)}${two(t.minute)}`;
    return seconds ? base + two(t.second) : base;
  };
  let body: string;
  switch (command) {
    case '1001':
      body = stamp(p.o.clock.now(), false);
      break;
    case '1017': {
      const last = p.lastDocument(false);
      body = last
        ? `${stamp(last.at, false)}${four(last.doc)}${cents9(last.totalCents)}${last.kind === 'non-fiscal' ? 0 : 1}${last.kind === 'cancelled' ? 1 : 0}`
        : '0'.repeat(25);
      if (p.faults.garbled1017) {
        ex.responseBuf = `${command}ERR?${body.slice(0, 9)}`;
        return;
      }
      if (p.faults.dio1017NoEcho) {
        ex.responseBuf = body;
        return;
      }
      break;
    }
    case '1104':
      body = `${four(p.counters.z - 1)}${four(1)}`;
      break;
    case '1106':
      body = stamp(p.lastZAt, true);
      break;
    case '1107':
      body = stamp(p.lastDocument(true)?.at, true);
      break;
    case '1514': {
      const kind = digits(data || '0', 0, 1);
      const waiting = kind === 0 ? (p.faults.filesToSend?.count ?? 0) : 0;
      body = `${kind}${four(0)}${four(waiting)}${four(0)}`;
      break;
    }
    case '1530': {
      const expired = p.dayExpired() ? '1' : '0';
      body = `${expired}${expired}`;
      break;
    }
    default:
      throw new CustomRefusal(ST.invalid);
  }
  ex.responseBuf = `${command}${body}`;
}
