import type { ConnectorApi } from '../../connector/api.js';
import { FISCAL_LISTED_TYPES, type NormalizedItem } from '../../connector/model.js';
import type { Logger } from '../../log.js';
import { enterpriseFilter } from './discovery-requests.js';
import type { IntakeSink } from './ports.js';

/**
 * The intake's reads of fiscal commands by id. A platform may list a fiscal machine as a Printer
 * (platform-interfaces.md, Part B › Resources › Fiscal machine command data: `Device.Type`
 * FiscalMachine and Printer both occur), and then a `commands/*` listing shows its commands with
 * whatever `Data` it has for a printer. So a new command of a configured fiscal device listed as
 * FiscalMachine or Printer is never taken from a `commands/*` listing (`route`): it is read
 * through `fiscalMachineCommands/getAll` by id (`fetchRouted`), and one that operation does not
 * return is left alone (warned once). A listing whose shape disagrees with the configuration
 * never ends a command in Error while the documented read can answer.
 */

export interface FiscalReadsOptions {
  connector: ConnectorApi;
  enterpriseIds?: readonly string[] | undefined;
  fiscalDeviceIds: readonly string[];
  sink: Pick<IntakeSink, 'ingest' | 'isKnown'>;
  log: Logger;
  signal: AbortSignal;
  /** Runs one platform read (the intake's activity bookkeeping). */
  request: <T>(fn: () => Promise<T>) => Promise<T>;
}

const MAX_IDS = 1000;
const MAX_UNLISTED = 10_000;

export class FiscalReads {
  private readonly fiscalDevices: ReadonlySet<string>;
  /** Routed ids the fiscal operation did not return (warned once). */
  private readonly unlisted = new Set<string>();

  constructor(private readonly options: FiscalReadsOptions) {
    this.fiscalDevices = new Set(options.fiscalDeviceIds);
  }

  /**
   * Splits the items of a `commands/*` listing: the commands of configured fiscal devices (listed
   * as FiscalMachine or Printer) are never taken from it — `fiscalIds` holds the new ones, to be
   * read by `fetchRouted`; known ones are followed by the fiscal poll and the reads by id — and
   * `others` are everything else, for the sink (`Intake.takeListing` hands them on).
   */
  route(items: readonly NormalizedItem[]): { others: NormalizedItem[]; fiscalIds: string[] } {
    const { sink } = this.options;
    const others: NormalizedItem[] = [];
    const fiscalIds: string[] = [];
    for (const item of items) {
      const id = item.ok ? item.command.id : item.id;
      const deviceId = item.ok ? item.command.device.id : item.deviceId;
      const listed = item.ok ? item.command.device.type : item.deviceType;
      if (id && deviceId && this.fiscalDevices.has(deviceId) && FISCAL_LISTED_TYPES.includes(listed ?? '')) {
        if (!sink.isKnown(id)) fiscalIds.push(id);
      } else {
        others.push(item);
      }
    }
    return { others, fiscalIds };
  }

  /**
   * Reads routed ids by id (with `more` ids to look up in the same requests). Rejects with the
   * connector's AgentError.
   */
  async fetchRouted(ids: readonly string[], via: string, more: readonly string[] = []): Promise<void> {
    if (ids.length === 0 && more.length === 0) return;
    const found = await this.fetch([...more, ...ids], via);
    this.noteUnlisted(ids, found, via);
  }

  /** Warns (once each) of routed ids the fiscal operation did not return: they are not touched. */
  noteUnlisted(ids: readonly string[], found: ReadonlySet<string>, via: string): void {
    for (const id of ids) {
      if (found.has(id) || this.unlisted.has(id)) continue;
      if (this.unlisted.size >= MAX_UNLISTED) this.unlisted.clear();
      this.unlisted.add(id);
      this.options.log.warn(
        'a command of a fiscal device is not returned by fiscalMachineCommands/getAll; not touched',
        { commandId: id, via },
      );
    }
  }

  /**
   * Fiscal commands by id (any state comes back), ≤1000 per request, handed to the sink; the
   * cursor is followed until every id came back (a platform may cap Count). Returns the ids found.
   */
  async fetch(ids: readonly string[], via: string): Promise<Set<string>> {
    const { connector, enterpriseIds, sink, signal } = this.options;
    const enterprise = enterpriseFilter(enterpriseIds);
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += MAX_IDS) {
      const batch = ids.slice(i, i + MAX_IDS);
      const wanted = new Set(batch);
      await this.options.request(async () => {
        const pages = connector.fiscalCommands(
          { CommandIds: batch, ...enterprise },
          { priority: 'discovery', signal, pageSize: Math.max(10, batch.length) },
        );
        for await (const page of pages) {
          sink.ingest(page, via);
          for (const item of page) {
            const id = item.ok ? item.command.id : item.id;
            if (id === undefined) continue;
            wanted.delete(id);
            found.add(id);
          }
          if (wanted.size === 0) break;
        }
      });
    }
    return found;
  }
}
