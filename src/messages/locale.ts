import type { Locale } from './catalogue.js';

/**
 * The language staff read, when the configuration does not say (`locale:`):
 *
 * 1. the property's time zone — an Italian zone (`Europe/Rome`, `Europe/San_Marino`,
 *    `Europe/Vatican`) means Italian, since the receptionists there read Italian;
 * 2. otherwise the system locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, in POSIX order), Italian when it
 *    starts with `it`;
 * 3. otherwise English.
 *
 * The zone comes first because it is a fact about the hotel that the agent is configured with
 * anyway (`timezone:`, default `Europe/Rome`), while the system locale describes the PC: a front-desk
 * PC installed from an English image, or a systemd service (which starts with `LANG=C.UTF-8` or
 * none), says nothing about who stands at the desk.
 */
export const ITALIAN_ZONES: readonly string[] = ['Europe/Rome', 'Europe/San_Marino', 'Europe/Vatican'];

export function defaultLocale(timeZone: string, env: NodeJS.ProcessEnv = process.env): Locale {
  if (ITALIAN_ZONES.includes(timeZone)) return 'it';
  return systemLocale(env);
}

/** The system's (or the terminal's) language: `LC_ALL`, `LC_MESSAGES`, `LANG`, in POSIX order. */
export function systemLocale(env: NodeJS.ProcessEnv = process.env): Locale {
  const system = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^it([_.@-]|$)/i.test(system) ? 'it' : 'en';
}
