/**
 * How long the Base64 in `text` is, in Base64 characters (`=` padding included), or undefined
 * when it is not Base64: the standard alphabet, at most two `=` and only at the end, and the
 * characters of `skip` ignored anywhere (`line-breaks`: CR and LF, as MIME wraps it;
 * `whitespace`: also spaces and tabs). The length says whether the text is complete (a multiple
 * of 4) and how large its decoding is.
 *
 * One linear scan for every device that takes Base64 from the platform: a regular expression
 * backtracked quadratically on a long run of line breaks (a 40 MB `FileData` of them stalled the
 * agent), and no pattern's backtracking should decide what tens of MB cost.
 */
export function base64Length(text: string, skip: 'line-breaks' | 'whitespace'): number | undefined {
  const spaces = skip === 'whitespace';
  let length = 0;
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || (spaces && (c === 0x20 || c === 0x09))) continue;
    length++;
    if (c === 0x3d) {
      if (++padding > 2) return undefined;
      continue;
    }
    const alphabet =
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2b ||
      c === 0x2f;
    if (!alphabet || padding > 0) return undefined;
  }
  return length;
}
