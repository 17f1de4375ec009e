/**
 * Every catalogue of the core, in one import. A module registers its sentences when it is loaded,
 * and a process can render messages it did not make itself — the command line printing the Notes
 * of `/status.json`, the page showing a journal's Notes — so the composition root (`src/cli.ts`)
 * imports this, as `drivers/index.ts` imports every driver family's catalogue.
 */
import '../cli/messages.js';
import '../commands/messages.js';
import '../connector/messages.js';
import '../drivers-api/messages.js';
import '../status/messages.js';
import '../supervision/messages.js';
import '../transport/messages.js';
import './core.js';
import './error-codes.js';
