import { printerAddress as shared } from '../fiscal-it/rt/address.js';
import type { EpsonFpmateOptions } from './config.js';
import { epsonRefusals } from './messages-refusals.js';

export { isAllowed } from '../fiscal-it/rt/address.js';

/**
 * Where receipts go: the configured `url`, or with `url: fromPlatform` the command's ApiUrl when
 * `allowedHosts` names its host (the rule every RT family shares: `drivers/fiscal-it/rt/address.ts`).
 */
export function printerAddress(options: EpsonFpmateOptions, apiUrl: string | undefined): string {
  return shared(options, apiUrl, epsonRefusals);
}
