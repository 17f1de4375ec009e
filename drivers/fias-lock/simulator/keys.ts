import { type FiasRecord, fieldOf } from '../records.js';
import { parseFiasClock, parseFiasDate } from '../time.js';

/**
 * A lock server's reading of a key request (KR), written from the IFC8 FIAS specification
 * 2.20.23 ("Key Services", KR table p.62–63, codes p.107) — never from the agent's driver:
 * KC, KT, RN and WS are mandatory; KT is N (new), D (duplicate) or O (one-shot); GA/GD are YYMMDD;
 * DT is `HH:MM` (p.63) or, as some bridges send it, `HHMMSS`; SI lists further rooms separated by
 * `;` (the table) or `,` (the KZ example, p.68). Field order does not matter and unknown fields
 * are skipped (p.12). A request it cannot read is answered `UR` with the reason, the way the
 * spec's error example answers `ASNG|CTINVALID ROOM` (p.14).
 */

export type KeyType = 'N' | 'D' | 'O';

/** A card the simulated lock server wrote. */
export interface EncodedKey {
  keyType: KeyType;
  encoder: string;
  workstation: string;
  room: string;
  /** Further rooms (SI). */
  suite: string[];
  reservation?: string;
  guest?: string;
  arrival?: string;
  departure?: string;
  departureTime?: string;
  keyOptions?: string;
  /** K# as sent (the spec says always 1). */
  count?: string;
  /** Every field as received, in order. */
  fields: ReadonlyArray<readonly [string, string]>;
  /** Clock time the card was written. */
  at: number;
}

export type ReadRequest =
  | { ok: true; key: Omit<EncodedKey, 'at'> }
  | { ok: false; status: 'UR'; text: string };

export function readKeyRequest(kr: FiasRecord): ReadRequest {
  const get = (id: string) => fieldOf(kr, id);
  for (const id of ['KC', 'KT', 'RN', 'WS']) {
    if (!get(id)) return { ok: false, status: 'UR', text: `MISSING ${id}` };
  }
  const keyType = get('KT') as string;
  if (keyType !== 'N' && keyType !== 'D' && keyType !== 'O') {
    return { ok: false, status: 'UR', text: `BAD KEY TYPE ${keyType.slice(0, 10)}` };
  }
  for (const id of ['GA', 'GD']) {
    const value = get(id);
    if (value !== undefined && value !== '' && !parseFiasDate(value))
      return { ok: false, status: 'UR', text: `BAD DATE ${id}` };
  }
  const dt = get('DT');
  if (dt !== undefined && dt !== '' && !parseFiasClock(dt))
    return { ok: false, status: 'UR', text: 'BAD TIME DT' };
  const si = get('SI');
  const key: Omit<EncodedKey, 'at'> = {
    keyType,
    encoder: get('KC') as string,
    workstation: get('WS') as string,
    room: get('RN') as string,
    suite: si
      ? si
          .split(/[;,]/)
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
    fields: kr.fields,
  };
  const optional: Array<[keyof EncodedKey, string]> = [
    ['reservation', 'G#'],
    ['guest', 'GN'],
    ['arrival', 'GA'],
    ['departure', 'GD'],
    ['departureTime', 'DT'],
    ['keyOptions', 'KO'],
    ['count', 'K#'],
  ];
  for (const [name, id] of optional) {
    const value = get(id);
    if (value !== undefined) (key as Record<string, unknown>)[name] = value;
  }
  return { ok: true, key };
}
