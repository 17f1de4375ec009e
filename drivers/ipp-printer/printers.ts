import { AgentError } from '../../src/errors.js';
import type { IppPrinterOptions } from './config.js';
import { ippMessages } from './messages.js';

/** Where one platform `PrinterName` prints. */
export interface PrinterTarget {
  /** The platform's name (or the configured key it matched). */
  name: string;
  /** What Notes and the status page call it. */
  label: string;
  uri: string;
  /** False for a same-name CUPS queue the configuration does not list. */
  configured: boolean;
}

/** A CUPS queue name for a platform printer name: CUPS refuses space, tab, "/", "#" and "\". */
export function queueNameOf(name: string): string {
  return name
    .trim()
    .replace(/[\s/#\\]+/g, '_')
    .slice(0, 127);
}

/** The configured printers, in configuration order. */
export function configuredTargets(options: IppPrinterOptions): PrinterTarget[] {
  return Object.entries(options.printers).map(([name, entry]) => ({
    name,
    label: entry.label ?? name,
    uri: entry.uri,
    configured: true,
  }));
}

export function cupsQueueUri(options: IppPrinterOptions, queue: string): string {
  const base = options.cupsUrl.replace(/\/+$/, '');
  return `${base}/printers/${encodeURIComponent(queue)}`;
}

/**
 * Resolves a command's `PrinterName`: the configured map (exact, then ignoring case), the default
 * printer for an empty name, else — with `cupsQueues` — the same-name CUPS queue. Rejects with
 * COMMAND_INVALID naming the printers the agent knows.
 */
export function resolvePrinter(options: IppPrinterOptions, printerName: string): PrinterTarget {
  const targets = configuredTargets(options);
  const wanted = printerName.trim();
  if (wanted === '') {
    const fallback =
      (options.defaultPrinter && targets.find((t) => t.name === options.defaultPrinter)) ||
      (targets.length === 1 ? targets[0] : undefined);
    if (fallback) return fallback;
    throw unknownPrinter(printerName, knownNames(options));
  }
  const exact = targets.find((t) => t.name === wanted);
  if (exact) return exact;
  const folded = targets.find((t) => t.name.toLowerCase() === wanted.toLowerCase());
  if (folded) return folded;
  if (options.cupsQueues) {
    const queue = queueNameOf(wanted);
    return { name: wanted, label: wanted, uri: cupsQueueUri(options, queue), configured: false };
  }
  throw unknownPrinter(printerName, knownNames(options));
}

export function knownNames(options: IppPrinterOptions, cupsQueues: readonly string[] = []): string[] {
  const names = [...Object.keys(options.printers)];
  for (const q of cupsQueues) if (!names.some((n) => queueNameOf(n) === q)) names.push(q);
  return names;
}

/** The Error for a printer name the agent cannot place; nothing was printed. */
export function unknownPrinter(printerName: string, known: readonly string[]): AgentError {
  const trimmed = printerName.trim();
  const name = trimmed.length > 80 ? `${trimmed.slice(0, 79)}…` : trimmed;
  const list =
    known.length > 0 ? ippMessages.knownPrinters({ names: { list: known } }) : ippMessages.noKnownPrinters();
  return new AgentError('COMMAND_INVALID', `Unknown printer ${JSON.stringify(name)}`, {
    notes:
      name === ''
        ? ippMessages.noPrinterName({ known: list })
        : ippMessages.unknownPrinter({ name, known: list }),
    details: { printerName: name, known },
  });
}
