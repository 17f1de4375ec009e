import { Base64StreamDecoder, type DecodedBytes } from '../transport/base64-stream.js';
import type { NormalizedItem } from './model.js';

/**
 * A print document (`FileData`, tens of MB of Base64) read out of the platform's answer as it
 * arrives, so that it never becomes text: the connector hands the answer's bytes through
 * `filter` (`src/transport/http.ts`, `answerFilter`), which copies the JSON through except for
 * the value of every `"FileData"` string, which it decodes into parts (`Base64StreamDecoder`) and
 * replaces by a short placeholder. After the answer was parsed and normalised, `attach` puts each
 * document in its command (`PrintJobData.document`) and empties `fileData`. What a 20 MB PDF
 * costs in memory is then its decoded bytes, once (bench/print-memory.ts).
 *
 * Nothing about the answer's meaning changes: a JSON answer that is broken inside a document
 * (a raw control character, a bad escape) is passed on broken, so it fails to parse as before; a
 * value that is not Base64 arrives as a document marked `valid: false` (the driver refuses it as
 * before, nothing printed). A key spelled with escapes (`"File\u0044ata"`) is not recognised and
 * its value stays text, which every reader still takes.
 *
 * One spool per request attempt: `reset` starts over (a retry reads the answer again).
 */

/** What a document's value becomes in the JSON: a NUL first, which no Base64 text holds. */
export const DOCUMENT_PLACEHOLDER = '\u0000frontdesk-document:';
const PLACEHOLDER_JSON = Buffer.from('\\u0000frontdesk-document:', 'latin1');
const KEY = Buffer.from('FileData', 'latin1');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

type Mode = 'json' | 'string' | 'string-escape' | 'document' | 'document-escape' | 'document-unicode';

export class DocumentSpool {
  private documents: DecodedBytes[] = [];
  private mode: Mode = 'json';
  /** How much of `FileData` the string being read has spelled so far; -1 once it differs. */
  private keyMatched = 0;
  /** A string just ended that spelled `FileData`; a `:` after it arms the next value. */
  private keyJustEnded = false;
  private armed = false;
  private decoder: Base64StreamDecoder | undefined;
  private unicode = '';

  /** Starts over, for a new attempt of the request. */
  reset(): void {
    this.documents = [];
    this.mode = 'json';
    this.keyMatched = 0;
    this.keyJustEnded = false;
    this.armed = false;
    this.decoder = undefined;
    this.unicode = '';
  }

  /** The answer's bytes in, the same bytes out with every `FileData` value replaced. */
  readonly filter = (chunk: Buffer): Buffer => {
    const out: Buffer[] = [];
    let copyFrom = 0;
    /** The next backslash at or after the scan (-1: none left; below `i`: look again). */
    let slash = -2;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as number;
      switch (this.mode) {
        case 'json':
          if (c === QUOTE) {
            if (this.armed) {
              // The document begins: the quote goes out, then the placeholder instead of the text.
              out.push(
                chunk.subarray(copyFrom, i + 1),
                PLACEHOLDER_JSON,
                Buffer.from(String(this.documents.length)),
              );
              this.mode = 'document';
              this.decoder = new Base64StreamDecoder();
              this.armed = false;
            } else {
              this.mode = 'string';
              this.keyMatched = 0;
            }
            this.keyJustEnded = false;
          } else if (c === COLON) {
            this.armed = this.keyJustEnded;
            this.keyJustEnded = false;
          } else if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
            this.keyJustEnded = false;
            this.armed = false;
          }
          break;
        case 'string': {
          // Most of an answer is string content: jump to its end (or an escape) natively.
          if (slash !== -1 && slash < i) slash = chunk.indexOf(BACKSLASH, i);
          const quote = chunk.indexOf(QUOTE, i);
          const stop = quote < 0 ? slash : slash < 0 ? quote : Math.min(quote, slash);
          const end = stop < 0 ? chunk.length : stop;
          for (let k = i; k < end && this.keyMatched >= 0; k++)
            this.keyMatched = chunk[k] === KEY[this.keyMatched] ? this.keyMatched + 1 : -1;
          if (stop < 0) {
            i = chunk.length;
            break;
          }
          i = stop;
          if (stop === quote) {
            this.mode = 'json';
            this.keyJustEnded = this.keyMatched === KEY.length;
          } else {
            this.mode = 'string-escape';
            this.keyMatched = -1;
          }
          break;
        }
        case 'string-escape':
          this.mode = 'string';
          break;
        case 'document':
          if (c === QUOTE) {
            this.documents.push((this.decoder as Base64StreamDecoder).finish());
            this.decoder = undefined;
            this.mode = 'json';
            copyFrom = i;
          } else if (c === BACKSLASH) {
            this.mode = 'document-escape';
          } else if (c < 0x20) {
            out.push(broken(c));
          } else {
            (this.decoder as Base64StreamDecoder).push(c);
          }
          break;
        case 'document-escape':
          this.mode = 'document';
          this.escape(c, out);
          break;
        case 'document-unicode':
          this.unicode += String.fromCharCode(c);
          if (this.unicode.length === 4) {
            this.mode = 'document';
            if (/^[0-9a-fA-F]{4}$/.test(this.unicode))
              (this.decoder as Base64StreamDecoder).push(Number.parseInt(this.unicode, 16));
            else out.push(broken(BACKSLASH));
            this.unicode = '';
          }
          break;
      }
    }
    if (this.mode === 'json' || this.mode === 'string' || this.mode === 'string-escape')
      out.push(chunk.subarray(copyFrom));
    return out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out);
  };

  /** One escape inside a document: the JSON meaning of `\<c>`, fed to the decoder. */
  private escape(c: number, out: Buffer[]): void {
    const decoder = this.decoder as Base64StreamDecoder;
    switch (c) {
      case 0x6e: // \n
        decoder.push(0x0a);
        return;
      case 0x72: // \r
        decoder.push(0x0d);
        return;
      case 0x2f: // \/
        decoder.push(0x2f);
        return;
      case 0x75: // \uXXXX
        this.mode = 'document-unicode';
        return;
      case QUOTE:
      case BACKSLASH:
      case 0x62: // \b
      case 0x66: // \f
      case 0x74: // \t
        decoder.push(0); // valid JSON, not Base64
        return;
      default:
        out.push(broken(BACKSLASH));
    }
  }

  /**
   * Puts each document in its command: a print command whose `fileData` is a placeholder gets the
   * document (`print.document`) and an empty `fileData`. Other items are returned as they are.
   */
  attach(items: NormalizedItem[]): NormalizedItem[] {
    if (this.documents.length === 0) return items;
    return items.map((item) => {
      if (!item.ok || item.command.data.kind !== 'print') return item;
      const print = item.command.data.print;
      if (!print.fileData.startsWith(DOCUMENT_PLACEHOLDER)) return item;
      const document = this.documents[Number(print.fileData.slice(DOCUMENT_PLACEHOLDER.length))];
      if (!document) return item;
      return {
        ...item,
        command: { ...item.command, data: { kind: 'print', print: { ...print, fileData: '', document } } },
      };
    });
  }
}

/**
 * A byte that makes the JSON invalid where the original was: a raw control character or a bad
 * escape inside a document is passed on, so the answer fails to parse as it would have.
 */
function broken(c: number): Buffer {
  return Buffer.from([c === BACKSLASH ? BACKSLASH : c, ...(c === BACKSLASH ? [0x78] : [])]);
}
