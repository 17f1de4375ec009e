import { describe, expect, it } from 'vitest';
import { IppClient } from '../../../drivers/ipp-printer/ipp-client.js';
import {
  attr,
  decodeMessage,
  encodeMessage,
  IppDecodeError,
  range,
  str,
  strs,
  v,
} from '../../../drivers/ipp-printer/ipp-codec.js';
import { GroupTag, Operation, ValueTag } from '../../../drivers/ipp-printer/ipp-constants.js';
import { startIppSimulator } from '../../../drivers/ipp-printer/simulator/index.js';
import { createHttpClient } from '../../../src/transport/http.js';

describe('the IPP codec (RFC 8010)', () => {
  it('round-trips every value syntax the driver and simulator use, collections included', () => {
    const { buffer, dataOffset } = encodeMessage(
      {
        code: Operation.printJob,
        requestId: 7,
        groups: [
          {
            tag: GroupTag.operation,
            attributes: [
              attr('attributes-charset', v.charset('utf-8')),
              attr('job-name', v.name('Zoë – 山田')),
              attr('my-jobs', v.boolean(true)),
              attr('requested-attributes', v.keyword('job-id'), v.keyword('job-state')),
            ],
          },
          {
            tag: GroupTag.job,
            attributes: [
              attr('copies', v.integer(3)),
              attr('copies-supported', v.range(1, 999)),
              attr('job-state', v.enum(5)),
              attr('date', v.date(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))),
              attr(
                'media-col',
                v.collection([
                  attr('media-size', v.collection([attr('x-dimension', v.integer(21000))])),
                  attr('media-type', v.keyword('stationery'), v.keyword('plain')),
                ]),
              ),
              attr('nothing', v.noValue()),
            ],
          },
        ],
      },
      4,
    );
    Buffer.from('%PDF').copy(buffer, dataOffset);
    const m = decodeMessage(buffer);
    expect(m).toMatchObject({ version: { major: 1, minor: 1 }, code: Operation.printJob, requestId: 7 });
    const op = m.groups[0]?.attributes;
    const job = m.groups[1]?.attributes;
    expect(str(op, 'job-name')).toBe('Zoë – 山田');
    expect(strs(op, 'requested-attributes')).toEqual(['job-id', 'job-state']);
    expect(op?.get('my-jobs')?.values).toEqual([true]);
    expect(range(job, 'copies-supported')).toEqual({ lower: 1, upper: 999 });
    expect(job?.get('job-state')).toMatchObject({ tag: ValueTag.enum, values: [5] });
    expect(job?.get('date')?.values[0]).toEqual(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    const col = job?.get('media-col')?.values[0] as Map<string, { values: unknown[] }>;
    expect(col.get('media-type')?.values).toEqual(['stationery', 'plain']);
    const size = col.get('media-size')?.values[0] as Map<string, { values: unknown[] }>;
    expect(size.get('x-dimension')?.values).toEqual([21000]);
    expect(job?.get('nothing')?.values).toEqual([{ outOfBand: ValueTag.noValue }]);
    expect(m.data?.toString()).toBe('%PDF');
  });

  it('refuses truncated, misplaced and absurdly nested input with IppDecodeError', () => {
    const { buffer } = encodeMessage({
      code: 0,
      requestId: 1,
      groups: [{ tag: GroupTag.operation, attributes: [attr('a', v.keyword('b'))] }],
    });
    for (let cut = 0; cut < buffer.length - 1; cut++) {
      expect(() => decodeMessage(buffer.subarray(0, cut))).toThrow(IppDecodeError);
    }
    expect(() => decodeMessage(Buffer.from([1, 1, 0, 0, 0, 0, 0, 1, 0x44, 0, 1, 0x61, 0, 0, 3]))).toThrow(
      'before any attribute group',
    );
    const deep = Buffer.concat([
      Buffer.from([1, 1, 0, 0, 0, 0, 0, 1, 0x01, 0x34, 0, 1, 0x63, 0, 0]),
      ...Array.from({ length: 20 }, () => Buffer.from([0x4a, 0, 0, 0, 1, 0x6d, 0x34, 0, 0, 0, 0])),
    ]);
    expect(() => decodeMessage(deep)).toThrow('nested too deep');
    expect(() =>
      decodeMessage(Buffer.from([1, 1, 0, 0, 0, 0, 0, 1, 0x01, 0x21, 0, 1, 0x61, 0, 2, 0, 0, 3])),
    ).toThrow('not 4');
  });

  it('concurrent calls on one client each get their own answer', async () => {
    const sim = await startIppSimulator({ printers: [{ name: 'P' }] });
    const http = createHttpClient();
    try {
      const client = new IppClient(http, 1 << 20);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          client.call(sim.printerUri('P'), Operation.getPrinterAttributes, [], { timeoutMs: 3000 }),
        ),
      );
      expect(answers.every((a) => a.statusName === 'successful-ok')).toBe(true);
    } finally {
      http.close();
      await sim.close();
    }
  });
});
