import { GroupTag, ValueTag } from './ipp-constants.js';

/**
 * The IPP/1.1 binary encoding (RFC 8010 §3): a message is a version, an operation id (requests) or
 * status code (responses), a request id, attribute groups and optional document data. Both
 * directions are here, for the driver (requests out, responses in) and for the printer simulator
 * (requests in, responses out).
 *
 * Decoding is defensive: every length is checked against the buffer, collections nest at most
 * `MAX_DEPTH` deep and a message holds at most `MAX_VALUES` items — values, collection member
 * names and attribute groups alike, since each becomes an object (a member name without a value
 * is a Map entry too: issue 27, a 4 MiB answer of them was 471k entries and 73 MB of heap) — so
 * a garbage or hostile answer ends in `IppDecodeError`, never in a crash, a hang or unbounded
 * memory.
 */

export interface IppRange {
  lower: number;
  upper: number;
}

export interface IppResolution {
  x: number;
  y: number;
  /** 3 = dots per inch, 4 = dots per centimetre. */
  units: number;
}

/** An out-of-band value (`unknown`, `no-value`, `unsupported`): only the tag matters. */
export interface IppOutOfBand {
  outOfBand: number;
}

export type IppCollection = Map<string, IppAttribute>;

export type IppValue =
  | number
  | boolean
  | string
  | Date
  | IppRange
  | IppResolution
  | IppOutOfBand
  | IppCollection
  | { lang: string; text: string };

export interface IppAttribute {
  name: string;
  /** The value tag of the first value (RFC 8010 §3.5.2); later values may differ (1setOf of mixed syntax). */
  tag: number;
  values: IppValue[];
}

export interface IppGroup {
  tag: number;
  attributes: Map<string, IppAttribute>;
}

export interface IppMessage {
  version: { major: number; minor: number };
  /** Operation id in a request, status code in a response. */
  code: number;
  requestId: number;
  groups: IppGroup[];
  /** Bytes after end-of-attributes: the document of a Print-Job. */
  data?: Buffer;
}

export class IppDecodeError extends Error {
  override readonly name = 'IppDecodeError';
}

const MAX_DEPTH = 8;
const MAX_VALUES = 50_000;

/** A value to encode: the tag says how. Strings are UTF-8. */
export interface IppOutValue {
  tag: number;
  value: number | boolean | string | IppRange | IppResolution | Date | IppOutAttribute[] | null;
}

export interface IppOutAttribute {
  name: string;
  values: IppOutValue[];
}

export interface IppOutGroup {
  tag: number;
  attributes: IppOutAttribute[];
}

export interface IppOutMessage {
  version?: { major: number; minor: number };
  code: number;
  requestId: number;
  groups: IppOutGroup[];
}

// ---- encoding -------------------------------------------------------------------------------

/** Shorthands for building attributes. */
export const v = {
  integer: (value: number): IppOutValue => ({ tag: ValueTag.integer, value }),
  enum: (value: number): IppOutValue => ({ tag: ValueTag.enum, value }),
  boolean: (value: boolean): IppOutValue => ({ tag: ValueTag.boolean, value }),
  keyword: (value: string): IppOutValue => ({ tag: ValueTag.keyword, value }),
  name: (value: string): IppOutValue => ({ tag: ValueTag.nameWithoutLanguage, value }),
  text: (value: string): IppOutValue => ({ tag: ValueTag.textWithoutLanguage, value }),
  uri: (value: string): IppOutValue => ({ tag: ValueTag.uri, value }),
  charset: (value: string): IppOutValue => ({ tag: ValueTag.charset, value }),
  language: (value: string): IppOutValue => ({ tag: ValueTag.naturalLanguage, value }),
  mime: (value: string): IppOutValue => ({ tag: ValueTag.mimeMediaType, value }),
  range: (lower: number, upper: number): IppOutValue => ({
    tag: ValueTag.rangeOfInteger,
    value: { lower, upper },
  }),
  date: (value: Date): IppOutValue => ({ tag: ValueTag.dateTime, value }),
  noValue: (): IppOutValue => ({ tag: ValueTag.noValue, value: null }),
  collection: (members: IppOutAttribute[]): IppOutValue => ({ tag: ValueTag.begCollection, value: members }),
};

export function attr(name: string, ...values: IppOutValue[]): IppOutAttribute {
  return { name, values };
}

/** The operation group every request starts with (RFC 8011 §4.1.4). */
export function operationGroup(...attributes: IppOutAttribute[]): IppOutGroup {
  return {
    tag: GroupTag.operation,
    attributes: [
      attr('attributes-charset', v.charset('utf-8')),
      attr('attributes-natural-language', v.language('en')),
      ...attributes,
    ],
  };
}

class Writer {
  private chunks: Buffer[] = [];
  length = 0;

  bytes(b: Buffer): void {
    this.chunks.push(b);
    this.length += b.length;
  }
  u8(n: number): void {
    const b = Buffer.allocUnsafe(1);
    b.writeUInt8(n & 0xff);
    this.bytes(b);
  }
  u16(n: number): void {
    const b = Buffer.allocUnsafe(2);
    b.writeUInt16BE(n & 0xffff);
    this.bytes(b);
  }
  i32(n: number): void {
    const b = Buffer.allocUnsafe(4);
    b.writeInt32BE(n | 0);
    this.bytes(b);
  }
  field(b: Buffer): void {
    if (b.length > 0xffff) throw new RangeError('IPP value longer than 65535 bytes');
    this.u16(b.length);
    this.bytes(b);
  }
  concat(room = 0): Buffer {
    const out = Buffer.allocUnsafe(this.length + room);
    let offset = 0;
    for (const c of this.chunks) offset += c.copy(out, offset);
    return out;
  }
}

/**
 * A value made of big-endian signed integers (four bytes each) followed by signed bytes: an
 * integer or enum is one, a rangeOfInteger two, a resolution two and a byte (RFC 8010 §3.9).
 */
function signedField(int32s: readonly number[], int8s: readonly number[] = []): Buffer {
  const b = Buffer.allocUnsafe(int32s.length * 4 + int8s.length);
  let offset = 0;
  for (const n of int32s) offset = b.writeInt32BE(n, offset);
  for (const n of int8s) offset = b.writeInt8(n, offset);
  return b;
}

function encodeValue(w: Writer, name: string, value: IppOutValue): void {
  w.u8(value.tag);
  w.field(Buffer.from(name, 'utf8'));
  const val = value.value;
  switch (value.tag) {
    case ValueTag.integer:
    case ValueTag.enum:
      w.field(signedField([Number(val)]));
      return;
    case ValueTag.boolean:
      w.field(Buffer.from([val ? 1 : 0]));
      return;
    case ValueTag.rangeOfInteger: {
      const r = val as IppRange;
      w.field(signedField([r.lower, r.upper]));
      return;
    }
    case ValueTag.resolution: {
      const r = val as IppResolution;
      w.field(signedField([r.x, r.y], [r.units]));
      return;
    }
    case ValueTag.dateTime:
      w.field(encodeDate(val as Date));
      return;
    case ValueTag.begCollection: {
      w.field(Buffer.alloc(0));
      for (const member of val as IppOutAttribute[]) {
        member.values.forEach((mv, i) => {
          if (i === 0) {
            w.u8(ValueTag.memberAttrName);
            w.field(Buffer.alloc(0));
            w.field(Buffer.from(member.name, 'utf8'));
          }
          encodeValue(w, '', mv);
        });
      }
      w.u8(ValueTag.endCollection);
      w.field(Buffer.alloc(0));
      w.field(Buffer.alloc(0));
      return;
    }
    default:
      if (value.tag >= 0x10 && value.tag <= 0x1f) {
        w.field(Buffer.alloc(0));
        return;
      }
      w.field(Buffer.from(String(val ?? ''), 'utf8'));
  }
}

/** RFC 2579 DateAndTime in UTC (11 octets). */
function encodeDate(d: Date): Buffer {
  const b = Buffer.alloc(11);
  b.writeUInt16BE(d.getUTCFullYear(), 0);
  b.writeUInt8(d.getUTCMonth() + 1, 2);
  b.writeUInt8(d.getUTCDate(), 3);
  b.writeUInt8(d.getUTCHours(), 4);
  b.writeUInt8(d.getUTCMinutes(), 5);
  b.writeUInt8(d.getUTCSeconds(), 6);
  b.writeUInt8(Math.floor(d.getUTCMilliseconds() / 100), 7);
  b.write('+', 8, 'latin1');
  return b;
}

/**
 * Encodes `message`; with `room`, the buffer has that many unwritten bytes after the attributes
 * for the document, so a large document is written once, straight into the request.
 */
export function encodeMessage(message: IppOutMessage, room = 0): { buffer: Buffer; dataOffset: number } {
  const w = new Writer();
  w.u8(message.version?.major ?? 1);
  w.u8(message.version?.minor ?? 1);
  w.u16(message.code);
  w.i32(message.requestId);
  for (const group of message.groups) {
    w.u8(group.tag);
    for (const a of group.attributes) {
      a.values.forEach((value, i) => {
        encodeValue(w, i === 0 ? a.name : '', value);
      });
    }
  }
  w.u8(GroupTag.end);
  const dataOffset = w.length;
  return { buffer: w.concat(room), dataOffset };
}

// ---- decoding -------------------------------------------------------------------------------

class Reader {
  offset = 0;
  values = 0;
  constructor(readonly buf: Buffer) {}

  /** One more decoded item (a value, a member name, a group): refused past `MAX_VALUES`. */
  count(): void {
    if (++this.values > MAX_VALUES) throw new IppDecodeError(`more than ${MAX_VALUES} IPP values`);
  }

  need(n: number): void {
    if (this.offset + n > this.buf.length) {
      throw new IppDecodeError(`truncated IPP message at byte ${this.offset} (needs ${n} more)`);
    }
  }
  u8(): number {
    this.need(1);
    return this.buf.readUInt8(this.offset++);
  }
  u16(): number {
    this.need(2);
    const n = this.buf.readUInt16BE(this.offset);
    this.offset += 2;
    return n;
  }
  i32(): number {
    this.need(4);
    const n = this.buf.readInt32BE(this.offset);
    this.offset += 4;
    return n;
  }
  field(): Buffer {
    const length = this.u16();
    this.need(length);
    const b = this.buf.subarray(this.offset, this.offset + length);
    this.offset += length;
    return b;
  }
}

function decodeValue(tag: number, raw: Buffer): IppValue {
  const fixed = (n: number) => {
    if (raw.length !== n)
      throw new IppDecodeError(`value of tag 0x${tag.toString(16)} has ${raw.length} bytes, not ${n}`);
  };
  switch (tag) {
    case ValueTag.integer:
    case ValueTag.enum:
      fixed(4);
      return raw.readInt32BE(0);
    case ValueTag.boolean:
      fixed(1);
      return raw[0] !== 0;
    case ValueTag.rangeOfInteger:
      fixed(8);
      return { lower: raw.readInt32BE(0), upper: raw.readInt32BE(4) };
    case ValueTag.resolution:
      fixed(9);
      return { x: raw.readInt32BE(0), y: raw.readInt32BE(4), units: raw.readInt8(8) };
    case ValueTag.dateTime: {
      fixed(11);
      const sign = String.fromCharCode(raw[8] ?? 43) === '-' ? 1 : -1;
      const offsetMin = sign * ((raw[9] ?? 0) * 60 + (raw[10] ?? 0));
      const ms = Date.UTC(
        raw.readUInt16BE(0),
        (raw[2] ?? 1) - 1,
        raw[3] ?? 1,
        raw[4] ?? 0,
        raw[5] ?? 0,
        raw[6] ?? 0,
        (raw[7] ?? 0) * 100,
      );
      return new Date(ms + offsetMin * 60_000);
    }
    case ValueTag.textWithLanguage:
    case ValueTag.nameWithLanguage: {
      const r = new Reader(raw);
      const lang = r.field().toString('utf8');
      const text = r.field().toString('utf8');
      return { lang, text };
    }
    default:
      if (tag >= 0x10 && tag <= 0x1f) return { outOfBand: tag };
      return raw.toString('utf8');
  }
}

/** Reads the members of a collection after its begCollection value, up to endCollection. */
function decodeCollection(r: Reader, depth: number): IppCollection {
  if (depth > MAX_DEPTH) throw new IppDecodeError('IPP collections nested too deep');
  const members: IppCollection = new Map();
  let current: IppAttribute | undefined;
  for (;;) {
    const tag = r.u8();
    if (tag === ValueTag.extension) r.i32();
    r.field(); // name: always empty inside a collection
    if (tag === ValueTag.endCollection) {
      r.field();
      return members;
    }
    if (tag === ValueTag.memberAttrName) {
      r.count();
      const name = r.field().toString('utf8');
      current = { name, tag: 0, values: [] };
      members.set(name, current);
      continue;
    }
    if (!current) throw new IppDecodeError('collection value without a member name');
    pushValue(r, current, tag, depth);
  }
}

function pushValue(r: Reader, attribute: IppAttribute, tag: number, depth: number): void {
  r.count();
  const raw = r.field();
  const value = tag === ValueTag.begCollection ? decodeCollection(r, depth + 1) : decodeValue(tag, raw);
  if (attribute.values.length === 0) attribute.tag = tag;
  attribute.values.push(value);
}

/** Decodes a request or a response. Rejects garbage with IppDecodeError. */
export function decodeMessage(buf: Buffer): IppMessage {
  const r = new Reader(buf);
  const version = { major: r.u8(), minor: r.u8() };
  const code = r.u16();
  const requestId = r.i32();
  const groups: IppGroup[] = [];
  let group: IppGroup | undefined;
  let current: IppAttribute | undefined;
  for (;;) {
    const tag = r.u8();
    if (tag === GroupTag.end) break;
    if (tag <= 0x0f) {
      r.count();
      group = { tag, attributes: new Map() };
      groups.push(group);
      current = undefined;
      continue;
    }
    if (!group) throw new IppDecodeError('IPP value before any attribute group');
    if (tag === ValueTag.extension) r.i32();
    const name = r.field().toString('utf8');
    if (name !== '') {
      current = { name, tag, values: [] };
      group.attributes.set(name, current);
    } else if (!current) {
      throw new IppDecodeError('additional IPP value without an attribute');
    }
    pushValue(r, current, tag, 0);
  }
  const message: IppMessage = { version, code, requestId, groups };
  if (r.offset < buf.length) message.data = buf.subarray(r.offset);
  return message;
}

// ---- reading decoded messages ----------------------------------------------------------------

/** Every group with `tag` (a Get-Jobs answer has one job group per job). */
export function groupsOf(message: IppMessage, tag: number): IppGroup[] {
  return message.groups.filter((g) => g.tag === tag);
}

export function firstGroup(message: IppMessage, tag: number): Map<string, IppAttribute> {
  return groupsOf(message, tag)[0]?.attributes ?? new Map();
}

type Attrs = Map<string, IppAttribute> | undefined;

export function num(attrs: Attrs, name: string): number | undefined {
  const value = attrs?.get(name)?.values[0];
  return typeof value === 'number' ? value : undefined;
}

export function bool(attrs: Attrs, name: string): boolean | undefined {
  const value = attrs?.get(name)?.values[0];
  return typeof value === 'boolean' ? value : undefined;
}

/** The text of a string value (with or without language). */
export function str(attrs: Attrs, name: string): string | undefined {
  return strs(attrs, name)[0];
}

export function strs(attrs: Attrs, name: string): string[] {
  const out: string[] = [];
  for (const value of attrs?.get(name)?.values ?? []) {
    if (typeof value === 'string') out.push(value);
    else if (typeof value === 'object' && value !== null && 'text' in value) out.push(value.text);
  }
  return out;
}

export function range(attrs: Attrs, name: string): IppRange | undefined {
  const value = attrs?.get(name)?.values[0];
  if (typeof value === 'object' && value !== null && 'lower' in value) return value;
  if (typeof value === 'number') return { lower: value, upper: value };
  return undefined;
}
