/**
 * The journal: one SQLite file (WAL) that is the single source of truth about every command of
 * ours — its record (`journal.ts`, rows in `rows.ts`, schema and migrations in `schema.ts`), its
 * document kept apart until the command closes (`documents.ts`, `command-data.ts`), the outbox
 * table of platform updates (`outbox-table.ts`), the drivers' per-device store
 * (`device-store.ts`), the page's statistics (`stats.ts`) and the group-commit flush
 * (`durability.ts`). It stands on the rules (the record's shape, the phases) and nothing else of
 * the engine. The stage's public surface: other stages import it only from here.
 */

export { keptAfterClose, splitDocument } from './command-data.js';
export {
  type CommandHead,
  type CommandPatch,
  type CommandRecord,
  Journal,
  type JournalOptions,
  type NewCommand,
  type Outcome,
  openJournal,
} from './journal.js';
export type { NewUpdate, OutboxItem } from './outbox-table.js';
export { SCHEMA_VERSION } from './schema.js';
