/**
 * The bounds one platform command must fit in before the agent reads it, whatever its shape
 * (fiscal flat, legacy `Data`, key cutter, printer). A command outside them is malformed on its
 * own (`COMMAND_INVALID`): it ends in Error with Notes, and the rest of its page goes on. Checked
 * on the item as it came off the wire, with no recursion (a command nested 10,000 deep is
 * measured like any other), before any schema or `JSON.parse` of an embedded string sees it.
 *
 * The documented shapes nest at most 7 deep (command › Data › Bill › Revenue › item › Amount ›
 * TaxValues); their strings are ids, names, dates and short notes. The limits leave a wide margin
 * above that and stay far below what could hurt the agent (its stack, its memory, the journal).
 */
export const COMMAND_LIMITS = {
  /** Objects and arrays inside one another, in the command and in its embedded JSON strings. */
  maxDepth: 32,
  /** Values (objects, arrays, strings, numbers, booleans, nulls) in one command. */
  maxValues: 50_000,
  /** One string that is neither a document nor embedded JSON: ids, names, notes, dates. */
  maxStringChars: 16 * 1024,
  /** An embedded JSON string (`FiscalMachineData`, `KeyCutterData`), before it is parsed. */
  maxEmbeddedJsonChars: 64 * 1024,
  /** Every string and key of the command together, its document left out. */
  maxTextChars: 1024 * 1024,
  /** A fiscal document (`ItalianFiscalMachinePayload.Payload`, legacy `PayloadData.Value`), Base64. */
  maxFiscalPayloadChars: 1024 * 1024,
  /**
   * A print document (`FileData`, Base64). The connector's answer cap (64 MiB) bounds it too; the
   * printer driver applies its own, smaller, limit (`maxFileBytes`) before decoding a byte.
   */
  maxFileDataChars: 64 * 1024 * 1024,
  /** An id the agent keeps and sends back (`Id`, `Device.Id`): the platform's are GUIDs. */
  maxIdChars: 128,
} as const;

/** Keys whose string value is embedded JSON, parsed a second time by the normaliser. */
const EMBEDDED_JSON_KEYS: ReadonlySet<string> = new Set(['FiscalMachineData', 'KeyCutterData']);

/** The cap of the string at `key` (under `parentKey`), and whether it counts as text. */
function stringCap(key: string, parentKey: string): { max: number; text: boolean } {
  if (key === 'FileData') return { max: COMMAND_LIMITS.maxFileDataChars, text: false };
  if (key === 'Payload' || (key === 'Value' && parentKey === 'PayloadData'))
    return { max: COMMAND_LIMITS.maxFiscalPayloadChars, text: false };
  if (EMBEDDED_JSON_KEYS.has(key)) return { max: COMMAND_LIMITS.maxEmbeddedJsonChars, text: true };
  return { max: COMMAND_LIMITS.maxStringChars, text: true };
}

interface Frame {
  value: unknown;
  depth: number;
  key: string;
  parentKey: string;
  path: string;
}

const MAX_PATH_CHARS = 80;

function childPath(path: string, key: string): string {
  const next = path ? `${path}.${key}` : key;
  return next.length > MAX_PATH_CHARS ? `${next.slice(0, MAX_PATH_CHARS - 1)}…` : next;
}

/**
 * Why `raw` (one command as received) is outside `COMMAND_LIMITS`, or undefined when it fits.
 * Linear in the command's size, iterative, never throws.
 */
export function commandBoundsViolation(raw: unknown): string | undefined {
  const stack: Frame[] = [{ value: raw, depth: 0, key: '', parentKey: '', path: '' }];
  let values = 0;
  let text = 0;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value, depth, key, path } = frame;
    if (++values > COMMAND_LIMITS.maxValues) {
      return `the command has more than ${COMMAND_LIMITS.maxValues} values`;
    }
    if (typeof value === 'string') {
      const cap = stringCap(key, frame.parentKey);
      if (value.length > cap.max) return `${path || 'a value'} is longer than ${cap.max} characters`;
      if (cap.text) text += value.length;
    } else if (value !== null && typeof value === 'object') {
      if (depth >= COMMAND_LIMITS.maxDepth) {
        return `${path || 'the command'} is nested deeper than ${COMMAND_LIMITS.maxDepth} levels`;
      }
      if (Array.isArray(value)) {
        if (value.length > COMMAND_LIMITS.maxValues) {
          return `the command has more than ${COMMAND_LIMITS.maxValues} values`;
        }
        for (let i = value.length - 1; i >= 0; i--) {
          stack.push({ value: value[i], depth: depth + 1, key, parentKey: frame.parentKey, path });
        }
      } else {
        const keys = Object.keys(value);
        if (keys.length > COMMAND_LIMITS.maxValues) {
          return `the command has more than ${COMMAND_LIMITS.maxValues} values`;
        }
        for (const k of keys) {
          text += k.length;
          stack.push({
            value: (value as Record<string, unknown>)[k],
            depth: depth + 1,
            key: k,
            parentKey: key,
            path: childPath(path, k),
          });
        }
      }
    }
    if (text > COMMAND_LIMITS.maxTextChars) {
      return `the command's text is longer than ${COMMAND_LIMITS.maxTextChars} characters`;
    }
  }
  return undefined;
}

/**
 * Why an embedded JSON value (already parsed from a string within `maxEmbeddedJsonChars`) nests
 * deeper than `maxDepth`, or undefined. Iterative; counts depth only (its size is bounded by the
 * string's).
 */
export function embeddedDepthViolation(value: unknown, what: string): string | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop() as { value: unknown; depth: number };
    if (frame.value === null || typeof frame.value !== 'object') continue;
    if (frame.depth >= COMMAND_LIMITS.maxDepth) {
      return `${what} is nested deeper than ${COMMAND_LIMITS.maxDepth} levels`;
    }
    const children = Array.isArray(frame.value) ? frame.value : Object.values(frame.value);
    for (const child of children) stack.push({ value: child, depth: frame.depth + 1 });
  }
  return undefined;
}

/** `value` when it is a usable id (a non-empty string within `maxIdChars`), else undefined. */
export function boundedId(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= COMMAND_LIMITS.maxIdChars
    ? value
    : undefined;
}
