import { describe, expect, it } from 'vitest';
import { IppPrinterOptionsSchema } from '../../../drivers/ipp-printer/config.js';
import { COMMAND_LIMITS } from '../../../src/connector/bounds.js';
import { MAX_PRINT_DOCUMENT_BYTES } from '../../../src/drivers-api/limits.js';

describe('ipp-printer maxFileBytes', () => {
  it('stops where the command bounds stop a FileData: 64 Mi Base64 characters, 48 MiB decoded', () => {
    expect(MAX_PRINT_DOCUMENT_BYTES).toBe((COMMAND_LIMITS.maxFileDataChars / 4) * 3);
    expect(IppPrinterOptionsSchema.safeParse({ maxFileBytes: MAX_PRINT_DOCUMENT_BYTES }).success).toBe(true);
    const tooLarge = IppPrinterOptionsSchema.safeParse({ maxFileBytes: 256 * 1024 * 1024 });
    expect(tooLarge.success).toBe(false);
    expect(tooLarge.error?.issues[0]?.message).toMatch(/at most 50331648 \(48 MiB\).*64 MiB of Base64/);
  });
});
