import type { Clock } from '../../src/clock.js';
import type { Logger } from '../../src/log.js';
import { type FiasRecord, fieldOf } from './records.js';

/**
 * The lock server's description of itself and of the records it wants (LD and LR, IFC8 FIAS
 * specification 2.20.23 §6 "LD - Link Description, LR - Link Record", p.18–19), built as the
 * records arrive and in force from the LA that closes it.
 *
 * Every value kept from the peer is bounded (issue 40 M2: `LR` records were kept without bound,
 * and 32 MB of them was an out-of-memory exit repeated after every restart):
 *
 * - a record id (`RI`) is two characters (p.19: "ANS, 2 chars"); any other is ignored;
 * - a field list (`FL`) is two-character field ids (p.19, p.20 example `FLRNG#GNGLGVGGGSSF`);
 *   the first `MAX_FIELDS_PER_RECORD` are read, repeats dropped (a key request has 25 fields);
 * - at most `MAX_DESCRIBED_RECORDS` records per description (the specification defines about 50
 *   record types, §6; a key interface uses three); an LR for an id already described replaces it;
 * - `V#` is "AN, max 10" and `IF` "AN, 2 chars" (p.18): kept clipped to 32 and 8 characters, so a
 *   longer one still reads on the status page; `RT` is "N, max 4" (p.18): another is ignored.
 *
 * What goes beyond a bound is dropped and counted (`ignored`), never kept.
 */

/** What the lock server said about itself and its records (LD and LR). */
export interface LinkDescription {
  /** `V#` of the LD. */
  version?: string;
  /** `IF`, the interface family (`DL` for door locks). */
  family?: string;
  /** `RT`, the LD's request-type bits (what the LC must carry). */
  requestType?: number;
  /** Each described record id → its field ids, in the order the lock server listed them. */
  records: ReadonlyMap<string, readonly string[]>;
}

export const MAX_DESCRIBED_RECORDS = 64;
export const MAX_FIELDS_PER_RECORD = 100;
const MAX_VERSION = 32;
const MAX_FAMILY = 8;

const TWO_CHARACTERS = /^[\x21-\x7e]{2}$/;

/**
 * `FLWSKCRN` → `['WS', 'KC', 'RN']`: the first `max` two-character ids of the list, without
 * repeats (a list of more ids than the specification defines is not read further).
 */
export function fieldList(text: string, max = MAX_FIELDS_PER_RECORD): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 2 <= Math.min(text.length, max * 2); i += 2) {
    const id = text.slice(i, i + 2);
    if (TWO_CHARACTERS.test(id)) out.add(id);
  }
  return [...out];
}

/** A description being received: an LD (or a first LR), then LRs, until the LA. */
export class DescriptionBuilder {
  private readonly described = new Map<string, string[]>();
  private readonly head: Omit<LinkDescription, 'records'> = {};
  private dropped = 0;

  /** Starts from an LD; without one (an LR first), from nothing. */
  constructor(ld?: FiasRecord) {
    if (!ld) return;
    const version = fieldOf(ld, 'V#');
    const family = fieldOf(ld, 'IF');
    const rt = fieldOf(ld, 'RT') ?? '';
    if (version !== undefined) this.head.version = version.slice(0, MAX_VERSION);
    if (family !== undefined) this.head.family = family.slice(0, MAX_FAMILY);
    if (/^\d{1,4}$/.test(rt)) this.head.requestType = Number(rt);
    else if (rt !== '') this.dropped++;
  }

  /** Records and fields left out for going beyond a bound. */
  get ignored(): number {
    return this.dropped;
  }

  /** Takes one LR. */
  add(lr: FiasRecord): void {
    const id = fieldOf(lr, 'RI') ?? '';
    const known = this.described.has(id);
    if (!TWO_CHARACTERS.test(id) || (!known && this.described.size >= MAX_DESCRIBED_RECORDS)) {
      this.dropped++;
      return;
    }
    const text = fieldOf(lr, 'FL') ?? '';
    const fields = fieldList(text);
    if (text.length > fields.length * 2) this.dropped++;
    this.described.set(id, fields);
  }

  build(): LinkDescription {
    return { ...this.head, records: new Map(this.described) };
  }
}

/**
 * The descriptions one link receives: the one in force, and the one being received (LD, LRs)
 * until its LA closes it. Before the link is Alive the link's handshake timer bounds a
 * description; while Alive, one not closed within `linkTimeoutMs` of its first LD or LR is
 * dropped and the one in force stays (issue 40 M2: a re-description has a timeout; §5 p.16 asks
 * at least 30 s of any answer). More LDs do not put that end off.
 */
export class DescriptionIntake {
  private pending: DescriptionBuilder | undefined;
  private current: LinkDescription | undefined;
  private redescribingSince: number | undefined;
  private timed = false;

  constructor(
    private readonly options: {
      clock: Clock;
      log: Logger;
      linkTimeoutMs: number;
      peer: string;
      /** The link's lifetime: its end stops the timer. */
      signal: AbortSignal;
    },
  ) {}

  get inForce(): LinkDescription | undefined {
    return this.current;
  }

  /** True while a description is being received. */
  get receiving(): boolean {
    return this.pending !== undefined;
  }

  /** An LD (a new description) or an LR (part of the one being received, or the start of one). */
  take(r: FiasRecord, alive: boolean): void {
    if (r.type === 'LD' || !this.pending) {
      this.pending = new DescriptionBuilder(r.type === 'LD' ? r : undefined);
      if (alive && this.redescribingSince === undefined) this.timeRedescription();
    }
    if (r.type === 'LR') this.pending.add(r);
  }

  /** The LA: the description received (or an empty one) is in force from now on. */
  close(): LinkDescription {
    const pending = this.pending ?? new DescriptionBuilder();
    this.pending = undefined;
    this.redescribingSince = undefined;
    if (pending.ignored > 0) {
      this.options.log.warn(
        'FIAS: the lock server described more than the agent keeps; the rest is ignored',
        {
          peer: this.options.peer,
          ignored: pending.ignored,
        },
      );
    }
    this.current = pending.build();
    return this.current;
  }

  private timeRedescription(): void {
    this.redescribingSince = this.options.clock.now();
    if (this.timed) return;
    this.timed = true;
    void this.expire().finally(() => {
      this.timed = false;
    });
  }

  private async expire(): Promise<void> {
    const { clock, linkTimeoutMs, signal } = this.options;
    for (;;) {
      const since = this.redescribingSince;
      if (since === undefined) return;
      const left = since + linkTimeoutMs - clock.now();
      if (left <= 0) break;
      try {
        await clock.sleep(left, signal);
      } catch {
        return;
      }
    }
    this.pending = undefined;
    this.redescribingSince = undefined;
    this.options.log.warn(
      'FIAS: the lock server began describing its records again and did not finish (LA) in time; the description in force stays',
      { peer: this.options.peer, waitedMs: linkTimeoutMs },
    );
  }
}
