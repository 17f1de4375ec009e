import type { KeyJobData } from '../connector/model.js';
import { AgentError } from '../errors.js';
import type { Logger } from '../log.js';
import { deviceMessages } from './messages.js';

/**
 * The key-card protocol a key command is meant for. The platform's key cutter integration has a
 * "Data JSON" that travels with every key command as `KeyCutterData` (a JSON string), and its
 * `Type` names the protocol the platform's own on-site application would speak to the lock
 * server (help.mews.com, "How do key cutter integrations work?", article 4394298: the connector
 * "translates and formats the key creation message … based on the Type specified in the Data
 * JSON field").
 *
 * Every key driver checks it the same way, here, before anything is written:
 * - a `Type` naming another protocol than the driver speaks ends the command in Error
 *   (COMMAND_INVALID) with Notes naming both: the platform meant another lock system;
 * - an absent `Type`, an unknown one, or `KeyCutterData` that is not JSON is accepted as before
 *   and logged once per driver and value (a hotel's Data JSON may say anything the agent does not
 *   know yet, e.g. `{"Type": "Salto"}`).
 *
 * The names, compared without regard to case:
 * - `IndustryStandardProtocol`: the PMS industry-standard protocol (salto-encoder), as the
 *   platform's Salto guide prescribes (`{ "Type":"IndustryStandardProtocol", … }`,
 *   MewsSystems/gitbook-guide, the Salto key cutter pages);
 * - `HotekKeyCutter`: Hotek's own protocol (the platform's Hotek guide), which no driver here
 *   speaks;
 * - `Fias`: Oracle's FIAS (fias-lock). The platform's FIAS guides are not public; no published
 *   Data JSON names it, so this name is the agent's choice (drivers/fias-lock/README.md), and
 *   `FiasKeyCutter` (the pattern of the names above) is read the same way.
 */
export type KeyProtocol = 'industry-standard' | 'fias' | 'hotek';

const TYPE_NAMES: ReadonlyMap<string, KeyProtocol> = new Map([
  ['industrystandardprotocol', 'industry-standard'],
  ['fias', 'fias'],
  ['fiaskeycutter', 'fias'],
  ['hotekkeycutter', 'hotek'],
]);

/** What staff read for each protocol (product names, the same in every language). */
export const KEY_PROTOCOL_NAMES: Readonly<Record<KeyProtocol, string>> = {
  'industry-standard': 'Industry Standard Protocol',
  fias: 'FIAS',
  hotek: 'Hotek',
};

/** The command's `KeyCutterData.Type` as written, and the protocol it names when it is known. */
export interface RequestedProtocol {
  /** Absent when `KeyCutterData` has no `Type` (or is not JSON). */
  type?: string;
  protocol?: KeyProtocol;
  /** Why no `Type` could be read, when `KeyCutterData` was not JSON. */
  unreadable?: string;
}

/** Reads `KeyCutterData.Type` of a key command. Never throws. */
export function requestedProtocol(keys: KeyJobData): RequestedProtocol {
  if (keys.settings.error) return { unreadable: keys.settings.error };
  const raw = keys.settings.value.Type;
  if (raw === undefined || raw === null) return {};
  const type = typeof raw === 'string' ? raw.trim() : JSON.stringify(raw);
  const protocol = TYPE_NAMES.get(type.toLowerCase());
  return protocol ? { type, protocol } : { type };
}

/** How many distinct absent/unknown Types one driver logs (a bound, not an expectation). */
const MAX_LOGGED = 32;

/**
 * The check one key driver runs on each command: `check(keys)` throws COMMAND_INVALID when the
 * command names another protocol, and logs an absent or unknown `Type` once per driver and value.
 */
export class KeyProtocolCheck {
  private readonly logged = new Set<string>();

  constructor(
    private readonly speaks: KeyProtocol,
    private readonly log: Logger,
  ) {}

  check(keys: KeyJobData): void {
    const asked = requestedProtocol(keys);
    if (asked.protocol === undefined) {
      this.logOnce(asked);
      return;
    }
    if (asked.protocol === this.speaks) return;
    const wanted = KEY_PROTOCOL_NAMES[asked.protocol];
    const speaks = KEY_PROTOCOL_NAMES[this.speaks];
    throw new AgentError(
      'COMMAND_INVALID',
      `KeyCutterData.Type ${JSON.stringify(asked.type)} names ${wanted}, but this encoder's driver speaks ${speaks}`,
      {
        notes: deviceMessages.otherKeyProtocol({ wanted, type: asked.type ?? '', speaks }),
        details: { keyCutterDataType: asked.type, speaks },
      },
    );
  }

  private logOnce(asked: RequestedProtocol): void {
    const key = asked.unreadable !== undefined ? '(not JSON)' : (asked.type ?? '(absent)');
    if (this.logged.has(key) || this.logged.size >= MAX_LOGGED) return;
    this.logged.add(key);
    const speaks = KEY_PROTOCOL_NAMES[this.speaks];
    if (asked.unreadable !== undefined) {
      this.log.info(`KeyCutterData is not JSON; cutting keys with ${speaks} as configured`, {
        problem: asked.unreadable,
      });
    } else if (asked.type === undefined) {
      this.log.info(`KeyCutterData names no Type; cutting keys with ${speaks} as configured`);
    } else {
      this.log.info(
        `KeyCutterData Type is not one the agent knows; cutting keys with ${speaks} as configured`,
        {
          keyCutterDataType: asked.type,
        },
      );
    }
  }
}
