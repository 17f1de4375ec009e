import type { PrintJobData } from '../../src/connector/model.js';
import type { Job } from '../../src/drivers-api/types.js';
import { AgentError } from '../../src/errors.js';
import type { Message } from '../../src/messages/message.js';
import { english } from '../../src/messages/render.js';
import { base64Length } from '../../src/transport/base64.js';
import type { DecodedBytes } from '../../src/transport/base64-stream.js';
import type { IppDocument } from './ipp-client.js';
import { ippFormats, ippMessages } from './messages.js';

/**
 * A print command's data, checked before anything is sent: the file type named and recognised,
 * the Base64 size within the limit (measured on the text, before a byte is decoded), the copy
 * count sane. Base64 text is decoded later, once, straight into the Print-Job request; a document
 * the connector decoded as it arrived (`PrintJobData.document`) goes out in its parts as they are.
 */

export interface PrintDocument {
  /** The MIME type sent as `document-format`. */
  format: string;
  /** The format's name as staff read it ('PDF', 'PNG image'). */
  formatLabel: Message;
  copies: number;
  printerName: string;
  /** What the Print-Job carries after its attributes. */
  body: IppDocument;
}

/** The formats the agent names, each with the `FileType` spellings (besides its MIME type) that mean it. */
const KNOWN_FORMATS: ReadonlyArray<{ mime: string; label: Message; aliases: readonly string[] }> = [
  { mime: 'application/pdf', label: ippFormats.pdf(), aliases: ['pdf', 'application/x-pdf'] },
  { mime: 'application/postscript', label: ippFormats.postscript(), aliases: ['ps', 'postscript'] },
  { mime: 'image/png', label: ippFormats.png(), aliases: ['png'] },
  { mime: 'image/jpeg', label: ippFormats.jpeg(), aliases: ['jpg', 'jpeg'] },
  { mime: 'text/plain', label: ippFormats.text(), aliases: ['txt', 'text'] },
  { mime: 'image/pwg-raster', label: ippFormats.pwg(), aliases: ['pwg'] },
  { mime: 'image/urf', label: ippFormats.urf(), aliases: ['urf'] },
  { mime: 'application/vnd.hp-pcl', label: ippFormats.pcl(), aliases: ['pcl'] },
];

const FORMATS: Record<string, { mime: string; label: Message }> = Object.fromEntries(
  KNOWN_FORMATS.flatMap(({ mime, label, aliases }) =>
    [mime, ...aliases].map((name) => [name, { mime, label }] as const),
  ),
);

/** First bytes each format must start with, so a mislabelled file is refused, not misprinted. */
const MAGIC: Record<string, { bytes: number[]; name: string }> = {
  'application/pdf': { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], name: '%PDF-' },
  'application/postscript': { bytes: [0x25, 0x21], name: '%!' },
  'image/png': { bytes: [0x89, 0x50, 0x4e, 0x47], name: 'the PNG signature' },
  'image/jpeg': { bytes: [0xff, 0xd8, 0xff], name: 'the JPEG signature' },
};

/**
 * Base64 as the platform sends it: the alphabet, line breaks anywhere (MIME style), at most two
 * `=` at the end (line breaks may follow them); one linear scan (`base64Length`).
 */
export function isBase64Text(text: string): boolean {
  return base64Length(text, 'line-breaks') !== undefined;
}

function invalid(message: string, notes: Message, details: Record<string, unknown> = {}): AgentError {
  return new AgentError('COMMAND_INVALID', message, { notes, details });
}

/** Reads a Printer command's data; rejects with COMMAND_INVALID (nothing was printed). */
export function printData(job: Job): PrintJobData {
  if (job.data.kind !== 'print') {
    throw invalid(`Not a print command (${job.data.kind})`, ippMessages.notPrintCommand());
  }
  return job.data.print;
}

/** Normalises `FileType` ("Pdf", "application/pdf; charset=…") to a known MIME type. */
export function formatOf(fileType: string): { mime: string; label: Message } | undefined {
  const key = fileType.trim().toLowerCase().split(';')[0]?.trim().replace(/^\./, '') ?? '';
  return (
    FORMATS[key] ??
    (/^[a-z]+\/[a-z0-9.+-]+$/.test(key) ? { mime: key, label: ippFormats.other({ mime: key }) } : undefined)
  );
}

export interface DocumentLimits {
  maxFileBytes: number;
  maxCopies: number;
}

/**
 * Checks the command's data. The size is judged on the Base64 text: a text longer than the limit
 * allows is refused before a byte is decoded.
 */
export function prepareDocument(data: PrintJobData, limits: DocumentLimits): PrintDocument {
  const format = formatOf(data.fileType);
  if (!format) {
    const shown = data.fileType.slice(0, 40) || 'none';
    throw invalid(`Unknown file type ${JSON.stringify(shown)}`, ippMessages.unknownFileType({ type: shown }));
  }
  const copies = data.copyCount;
  if (!Number.isInteger(copies) || copies < 1) {
    throw invalid(`Copy count ${copies}`, ippMessages.noCopies({ copies }), { copies });
  }
  if (copies > limits.maxCopies) {
    throw invalid(
      `Copy count ${copies} above ${limits.maxCopies}`,
      ippMessages.tooManyCopies({ copies, max: limits.maxCopies }),
      { copies, maxCopies: limits.maxCopies },
    );
  }
  if (data.document) return decodedDocument(data.document, format, copies, data.printerName, limits);
  const text = data.fileData;
  const maxBase64 = 4 * Math.ceil(limits.maxFileBytes / 3);
  // Line breaks (MIME-style Base64) are allowed: count them generously before refusing.
  if (text.length > maxBase64 + Math.ceil(maxBase64 / 38)) {
    throw tooLarge(Math.floor((text.length * 3) / 4), limits.maxFileBytes);
  }
  if (text.length === 0) {
    throw invalid('Empty document', ippMessages.emptyDocument());
  }
  if (!isBase64Text(text)) {
    throw invalid('FileData is not Base64', ippMessages.notBase64());
  }
  const maxLength = Buffer.byteLength(text, 'base64');
  if (maxLength > limits.maxFileBytes) throw tooLarge(maxLength, limits.maxFileBytes);
  checkFirstBytes(format, () => Buffer.from(text.slice(0, 16).replace(/[\r\n]/g, ''), 'base64'));
  return {
    format: format.mime,
    formatLabel: format.label,
    copies,
    printerName: data.printerName,
    body: { length: maxLength, write: (target, offset) => void target.write(text, offset, 'base64') },
  };
}

/** The same checks on a document decoded as it arrived: validity, size, first bytes. */
function decodedDocument(
  document: DecodedBytes,
  format: { mime: string; label: Message },
  copies: number,
  printerName: string,
  limits: DocumentLimits,
): PrintDocument {
  if (!document.valid) throw invalid('FileData is not Base64', ippMessages.notBase64());
  if (document.bytes === 0) throw invalid('Empty document', ippMessages.emptyDocument());
  if (document.bytes > limits.maxFileBytes) throw tooLarge(document.bytes, limits.maxFileBytes);
  checkFirstBytes(format, (count) => firstBytes(document.parts, count));
  return {
    format: format.mime,
    formatLabel: format.label,
    copies,
    printerName,
    body: { parts: document.parts, length: document.bytes },
  };
}

/** The first `count` bytes of the parts (reading only as many parts as that takes). */
/**
 * Refuses a document whose first bytes are not those of the type it claims (`MAGIC`: a PDF starts
 * with `%PDF-`), whether it came as Base64 text or already decoded; `head(count)` reads them.
 */
function checkFirstBytes(
  format: { mime: string; label: Message },
  head: (count: number) => Uint8Array,
): void {
  const magic = MAGIC[format.mime];
  if (!magic) return;
  const first = head(magic.bytes.length);
  if (!magic.bytes.every((b, i) => first[i] === b)) {
    throw invalid(
      `FileData is not ${english(format.label)} (does not start with ${magic.name})`,
      ippMessages.mislabelled({ format: format.label }),
    );
  }
}

function firstBytes(parts: Iterable<Buffer>, count: number): Buffer {
  const head: Buffer[] = [];
  let have = 0;
  for (const part of parts) {
    if (have >= count) break;
    head.push(part.subarray(0, count - have));
    have += head.at(-1)?.length ?? 0;
  }
  return Buffer.concat(head);
}

function tooLarge(bytes: number, max: number): AgentError {
  const mb = (n: number) => n / (1024 * 1024);
  return invalid(
    `Document of about ${bytes} bytes above the limit of ${max}`,
    ippMessages.tooLarge({ size: mb(bytes), max: mb(max) }),
    { bytes, maxFileBytes: max },
  );
}
