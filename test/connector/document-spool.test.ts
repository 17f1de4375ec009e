import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_PLACEHOLDER, DocumentSpool } from '../../src/connector/document-spool.js';
import { base64Length } from '../../src/transport/base64.js';
import { Base64StreamDecoder } from '../../src/transport/base64-stream.js';

/**
 * The print document read out of the platform's answer as it arrives (src/connector/
 * document-spool.ts): whatever the chunking, the JSON that remains parses to what the answer said
 * with every `FileData` replaced by a placeholder, and each document decodes to the bytes
 * `Buffer.from(text, 'base64')` gives — the oracle is Node's own decoder and `JSON.parse`.
 */

/** Feeds `text` through a fresh spool in chunks cut at `cuts`; the JSON kept, and the spool. */
function spooled(text: string, cuts: number[] = []): { json: string; spool: DocumentSpool } {
  const bytes = Buffer.from(text, 'utf8');
  const spool = new DocumentSpool();
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    if (cut <= from || cut >= bytes.length) continue;
    out.push(spool.filter(bytes.subarray(from, cut)));
    from = cut;
  }
  out.push(spool.filter(bytes.subarray(from)));
  return { json: Buffer.concat(out).toString('utf8'), spool };
}

function decodeAll(text: string): { bytes: Buffer; valid: boolean } {
  const decoder = new Base64StreamDecoder(7);
  for (let i = 0; i < text.length; i++) decoder.push(text.charCodeAt(i));
  const done = decoder.finish();
  return { bytes: Buffer.concat([...done.parts]), valid: done.valid };
}

describe('Base64 decoded as it arrives', () => {
  it('decodes what Node decodes, in parts, and refuses what base64Length refuses', () => {
    const alphabet = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\r\n!.'];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('base64')),
          fc.uint8Array({ maxLength: 200 }).map((b) =>
            Buffer.from(b)
              .toString('base64')
              .replace(/(.{7})/g, '$1\r\n'),
          ),
          fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }).map((c) => c.join('')),
        ),
        (text) => {
          const ours = decodeAll(text);
          const known = base64Length(text, 'line-breaks') !== undefined;
          expect(ours.valid).toBe(known);
          if (known) expect(ours.bytes.equals(Buffer.from(text, 'base64'))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('FileData taken out of the answer', () => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3000, 7), Buffer.from('%%EOF\n')]);
  const answer = (fileData: string, extra = '') =>
    `{"Commands":[{"Id":"c1","Data":{"CopyCount":1,"FileType":"pdf","FileData":${fileData},"PrinterName":"FileData"${extra}}},` +
    `{"Id":"c2","Data":{"Name":"x \\" \\\\ FileData","FileData" : "${pdf.toString('base64').replace(/\//g, '\\/')}"}}],"Cursor":null}`;

  it('keeps the rest of the JSON exactly, whatever the chunks, and each document byte for byte', () => {
    const text = answer(
      `"${pdf.toString('base64').replace(/(.{76})/g, '$1\\r\\n')}"`,
      ',"Note":"\\u00e8 ok"',
    );
    const expected = JSON.parse(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }), (cuts) => {
        const { json } = spooled(text, cuts);
        const parsed = JSON.parse(json);
        expect(parsed.Commands[0].Data.FileData).toBe(`${DOCUMENT_PLACEHOLDER}0`);
        expect(parsed.Commands[1].Data.FileData).toBe(`${DOCUMENT_PLACEHOLDER}1`);
        parsed.Commands[0].Data.FileData = expected.Commands[0].Data.FileData;
        parsed.Commands[1].Data.FileData = expected.Commands[1].Data.FileData;
        expect(parsed).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('puts each document in its print command, decoded, with fileData empty', () => {
    const { json, spool } = spooled(answer(`"${pdf.toString('base64')}"`), [100, 101, 2000]);
    const parsed = JSON.parse(json) as { Commands: Array<{ Id: string; Data: { FileData: string } }> };
    const items = spool.attach(
      parsed.Commands.map((c) => ({
        ok: true as const,
        command: {
          id: c.Id,
          state: 'Pending' as const,
          createdUtc: '2026-01-01T00:00:00Z',
          device: { id: 'd', type: 'Printer' as const, name: 'P' },
          source: 'commands' as const,
          data: {
            kind: 'print' as const,
            print: { copyCount: 1, fileType: 'pdf', fileData: c.Data.FileData, printerName: 'P' },
          },
        },
      })),
    );
    for (const item of items) {
      if (!item.ok || item.command.data.kind !== 'print') throw new Error('not a print');
      const { fileData, document } = item.command.data.print;
      expect(fileData).toBe('');
      expect(document?.valid).toBe(true);
      expect(Buffer.concat([...(document?.parts ?? [])]).equals(pdf)).toBe(true);
      expect(document?.bytes).toBe(pdf.length);
    }
  });

  it('marks a FileData that is not Base64, and leaves broken JSON broken', () => {
    const { json, spool } = spooled(answer('"not base64!"'));
    const parsed = JSON.parse(json);
    const [item] = spool.attach([
      {
        ok: true,
        command: {
          id: 'c1',
          state: 'Pending',
          createdUtc: '2026-01-01T00:00:00Z',
          device: { id: 'd', type: 'Printer', name: 'P' },
          source: 'commands',
          data: {
            kind: 'print',
            print: {
              copyCount: 1,
              fileType: 'pdf',
              fileData: parsed.Commands[0].Data.FileData,
              printerName: 'P',
            },
          },
        },
      },
    ]);
    expect(item?.ok && item.command.data.kind === 'print' && item.command.data.print.document?.valid).toBe(
      false,
    );
    // A raw line break or a bad escape inside the document: JSON.parse refuses it as before.
    for (const bad of ['"QUJD\nREVG"', '"QUJD\\qREVG"', '"QUJD\\u00zz"']) {
      expect(() => JSON.parse(answer(bad))).toThrow();
      expect(() => JSON.parse(spooled(answer(bad)).json)).toThrow();
    }
  });
});
