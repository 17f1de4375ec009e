/**
 * Every catalogue of the core, for the composition root (`app/cli.ts`) and only for it, as
 * `drivers/index.ts` lists the driver families'. Each part registers its sentences where they are
 * defined (defining is registering: `src/messages/catalogue.ts`), so a module that says a sentence
 * always has it; this list is for the process that renders sentences it did not make itself — the
 * command line printing the Notes of `/status.json`, the page showing a journal's Notes — and for
 * the catalogue test, which checks that every catalogue of the tree is reached from here or from
 * `drivers/index.ts`. Listing the parts here, above them, keeps `src/messages/` on the ground
 * floor: it imports nothing of the parts that speak through it.
 */
import './cli/messages.js';
// The engine's sentences (`commands/rules/messages.ts`), through the engine's front file.
import './commands/index.js';
import './connector/messages.js';
import './drivers-api/messages.js';
import './messages/core.js';
import './messages/error-codes.js';
// The status page's sentences (the page's, the waiting lines', the callers'), through the rooms' front files.
import './status/callers/index.js';
import './status/page/index.js';
import './supervision/messages.js';
import './transport/messages.js';
