import { describe, expect, it } from 'vitest';
import { decodeMessage, IppDecodeError } from '../../drivers/ipp-printer/ipp-codec.js';
import { GroupTag, ValueTag } from '../../drivers/ipp-printer/ipp-constants.js';

/**
 * Issue 27, finding 9 (IPP): collection member names were not counted against the decoder's
 * value limit. Every `memberAttrName` becomes a Map entry, so a printer (or anything holding its
 * address) answering a status poll with 4 MiB of member names without values made 471k entries,
 * 73 MB of heap and 0.8 s of blocked event loop — at every poll. Attribute-group delimiters were
 * not counted either: each is an object with its own Map.
 *
 * Now member names and groups count like values (RFC 8010 §3.1.6: a member name is an item of
 * its own, `memberAttrName` 0x4a), so such an answer ends in `IppDecodeError` after 50,000 items.
 * The bytes are built by hand, as RFC 8010 §3.1 lays them out: version, status, request id, then
 * tag / name-length / name / value-length / value.
 */

const FOUR_MIB = 4 * 1024 * 1024;

function header(): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt8(2, 0); // version 2.0
  b.writeUInt8(0, 1);
  b.writeUInt16BE(0x0000, 2); // successful-ok
  b.writeInt32BE(1, 4);
  return b;
}

/** tag, name-length, name, value-length, value. */
function item(tag: number, name: string, value: Buffer): Buffer {
  const n = Buffer.from(name, 'utf8');
  const b = Buffer.alloc(1 + 2 + n.length + 2 + value.length);
  b.writeUInt8(tag, 0);
  b.writeUInt16BE(n.length, 1);
  n.copy(b, 3);
  b.writeUInt16BE(value.length, 3 + n.length);
  value.copy(b, 5 + n.length);
  return b;
}

/** A printer-attributes group with one collection made of nothing but distinct member names. */
function memberNameFlood(bytes: number): Buffer {
  const head = Buffer.concat([
    header(),
    Buffer.from([GroupTag.printer]),
    item(ValueTag.begCollection, 'printer-icc-profiles', Buffer.alloc(0)),
  ]);
  const tail = Buffer.concat([
    item(ValueTag.endCollection, '', Buffer.alloc(0)),
    Buffer.from([GroupTag.end]),
  ]);
  // Each member: 0x4a, name-length 0, value-length 4, a distinct 4-byte name.
  const count = Math.floor((bytes - head.length - tail.length) / 9);
  const members = Buffer.alloc(count * 9);
  for (let i = 0; i < count; i++) {
    const at = i * 9;
    members.writeUInt8(ValueTag.memberAttrName, at);
    members.writeUInt16BE(4, at + 3);
    members.write(i.toString(36).padStart(4, '0'), at + 5, 'latin1');
  }
  return Buffer.concat([head, members, tail]);
}

describe('a hostile IPP answer cannot fill the heap', () => {
  it('refuses 4 MiB of collection member names instead of making hundreds of thousands of entries', () => {
    const answer = memberNameFlood(FOUR_MIB);
    expect(() => decodeMessage(answer)).toThrow(IppDecodeError);
    expect(() => decodeMessage(answer)).toThrow(/more than 50000 IPP values/);
  });

  it('refuses 4 MiB of empty attribute groups', () => {
    const answer = Buffer.concat([
      header(),
      Buffer.alloc(FOUR_MIB, GroupTag.printer),
      Buffer.from([GroupTag.end]),
    ]);
    expect(() => decodeMessage(answer)).toThrow(/more than 50000 IPP values/);
  });

  it('still reads an honest collection with its member names', () => {
    const answer = Buffer.concat([
      header(),
      Buffer.from([GroupTag.printer]),
      item(ValueTag.begCollection, 'media-col-default', Buffer.alloc(0)),
      item(ValueTag.memberAttrName, '', Buffer.from('media-source')),
      item(ValueTag.keyword, '', Buffer.from('main')),
      item(ValueTag.endCollection, '', Buffer.alloc(0)),
      Buffer.from([GroupTag.end]),
    ]);
    const message = decodeMessage(answer);
    const collection = message.groups[0]?.attributes.get('media-col-default')?.values[0];
    expect(collection).toBeInstanceOf(Map);
    expect((collection as Map<string, { values: unknown[] }>).get('media-source')?.values).toEqual(['main']);
  });
});
