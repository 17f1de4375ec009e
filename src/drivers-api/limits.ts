import { COMMAND_LIMITS } from '../connector/bounds.js';

/**
 * The largest print document, in decoded bytes, a platform command can carry: its Base64
 * `FileData` is capped at `COMMAND_LIMITS.maxFileDataChars` (64 Mi characters, which the
 * connector's 64 MiB answer cap bounds too), and four Base64 characters decode to three bytes.
 * A printer driver's own document limit above this could never be reached.
 */
export const MAX_PRINT_DOCUMENT_BYTES = Math.floor(COMMAND_LIMITS.maxFileDataChars / 4) * 3;
