import type { Clock } from '../../../src/clock.js';
import { formatLastDocument } from '../last-document.js';
import type { LocalDateTime } from '../protocol.js';
import { type DayTotals, emptyTotals } from './programming.js';
import type { Faults, PrintedDocument } from './types.js';

/** How long the simulated RT takes to send a closed day's file to the tax agency. */
export const TRANSMIT_AFTER_MS = 5 * 60_000;
/** An unsent file counts as old after a day (`rtOldFileToSend`; our reading of "old"). */
export const OLD_AFTER_MS = 24 * 3_600_000;

interface DailyFile {
  z: number;
  closedAt: number;
  sentAt?: number;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * The simulated RT's day totals, daily files and last-document record. Each Z report closes the
 * day's totals into a file the RT sends to the tax agency on its own (`TRANSMIT_AFTER_MS` on the
 * simulator's clock); while the agency cannot be reached (`transmissionDown`) files wait, and turn
 * old after a day. The status answer counts them (`rtFileToSend`, `rtOldFileToSend`; the
 * `rtFiles` fault overrides the counts).
 */
export class SimReports {
  day: DayTotals = emptyTotals();
  readonly closures: Array<{ z: number; totals: DayTotals }> = [];
  private readonly dailyFiles: DailyFile[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly faults: Faults,
  ) {}

  close(z: number, totals: DayTotals): void {
    this.closures.push({ z, totals });
    this.dailyFiles.push({ z, closedAt: this.clock.now() });
    this.day = emptyTotals();
  }

  files(override: Faults['rtFiles']): { toSend: number; old: number; rejected: number } {
    const now = this.clock.now();
    let toSend = 0;
    let old = 0;
    for (const file of this.dailyFiles) {
      if (
        file.sentAt === undefined &&
        !this.faults.transmissionDown &&
        now - file.closedAt >= TRANSMIT_AFTER_MS
      )
        file.sentAt = now;
      if (file.sentAt !== undefined) continue;
      if (now - file.closedAt > OLD_AFTER_MS) old += 1;
      else toSend += 1;
    }
    return {
      toSend: override?.toSend ?? toSend,
      old: override?.old ?? old,
      rejected: override?.rejected ?? 0,
    };
  }

  /**
   * The `directIO 1387` record of the last emitted document, laid out as fiskaltrust `scu-it`
   * parses it (`Models/LastEmittedDocStatus.cs`); before any document, the current Z with
   * document 0.
   */
  lastDocumentRecord(
    last: PrintedDocument | undefined,
    currentZ: number,
    serial: string,
    operator: string,
    local: LocalDateTime,
  ): string {
    const date = last
      ? `${last.dateTime.slice(8, 10)}${last.dateTime.slice(5, 7)}${last.dateTime.slice(2, 4)}`
      : `${two(local.day)}${two(local.month)}${String(local.year).slice(2)}`;
    const time = last ? `${last.dateTime.slice(11, 13)}${last.dateTime.slice(14, 16)}00` : '000000';
    return formatLastDocument(
      {
        totalCents: last?.totalCents ?? 0,
        vatCents: 0,
        date,
        time,
        z: last?.z ?? currentZ,
        doc: last?.doc ?? 0,
        serial,
        fiscal: last ? last.kind !== 'non-fiscal' : true,
      },
      operator,
    );
  }
}
