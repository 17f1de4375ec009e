import { z } from 'zod';

/**
 * Building blocks of a driver family's options (`DriverFactory.configSchema`): the same kind of
 * option is declared one way in every family, so it reads alike in each README and in
 * docs/configuration.md, which the schemas write.
 */

/** A time in whole milliseconds, at least `min`; `fallback` when the configuration gives none. */
export function milliseconds(min: number, fallback: number) {
  return z.number().int().min(min).default(fallback);
}
