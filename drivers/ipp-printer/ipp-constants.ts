/**
 * IPP/1.1 numbers (RFC 8010 §3.5, RFC 8011 §5.4, PWG 5100.x, CUPS Implementation of IPP for the
 * CUPS-specific operation): delimiter and value tags, the operations this driver sends or its
 * simulator answers, status codes and the job and printer state enums.
 */

export const GroupTag = {
  operation: 0x01,
  job: 0x02,
  end: 0x03,
  printer: 0x04,
  unsupported: 0x05,
} as const;

export const ValueTag = {
  unsupported: 0x10,
  unknown: 0x12,
  noValue: 0x13,
  integer: 0x21,
  boolean: 0x22,
  enum: 0x23,
  octetString: 0x30,
  dateTime: 0x31,
  resolution: 0x32,
  rangeOfInteger: 0x33,
  begCollection: 0x34,
  textWithLanguage: 0x35,
  nameWithLanguage: 0x36,
  endCollection: 0x37,
  textWithoutLanguage: 0x41,
  nameWithoutLanguage: 0x42,
  keyword: 0x44,
  uri: 0x45,
  uriScheme: 0x46,
  charset: 0x47,
  naturalLanguage: 0x48,
  mimeMediaType: 0x49,
  memberAttrName: 0x4a,
  extension: 0x7f,
} as const;

export const Operation = {
  printJob: 0x0002,
  validateJob: 0x0004,
  cancelJob: 0x0008,
  getJobAttributes: 0x0009,
  getJobs: 0x000a,
  getPrinterAttributes: 0x000b,
  /** CUPS extension: every queue of a CUPS server. */
  cupsGetPrinters: 0x4002,
} as const;

export const OPERATION_NAMES: Record<number, string> = {
  [Operation.printJob]: 'Print-Job',
  [Operation.validateJob]: 'Validate-Job',
  [Operation.cancelJob]: 'Cancel-Job',
  [Operation.getJobAttributes]: 'Get-Job-Attributes',
  [Operation.getJobs]: 'Get-Jobs',
  [Operation.getPrinterAttributes]: 'Get-Printer-Attributes',
  [Operation.cupsGetPrinters]: 'CUPS-Get-Printers',
};

export const Status = {
  ok: 0x0000,
  okIgnoredOrSubstituted: 0x0001,
  okConflicting: 0x0002,
  badRequest: 0x0400,
  forbidden: 0x0401,
  notAuthenticated: 0x0402,
  notAuthorized: 0x0403,
  notPossible: 0x0404,
  timeout: 0x0405,
  notFound: 0x0406,
  gone: 0x0407,
  requestEntityTooLarge: 0x0408,
  documentFormatNotSupported: 0x040a,
  attributesOrValues: 0x040b,
  internalError: 0x0500,
  operationNotSupported: 0x0501,
  serviceUnavailable: 0x0502,
  versionNotSupported: 0x0503,
  deviceError: 0x0504,
  temporaryError: 0x0505,
  notAcceptingJobs: 0x0506,
  busy: 0x0507,
  jobCanceled: 0x0508,
} as const;

export const STATUS_NAMES: Record<number, string> = {
  0: 'successful-ok',
  1: 'successful-ok-ignored-or-substituted-attributes',
  2: 'successful-ok-conflicting-attributes',
  1024: 'client-error-bad-request',
  1025: 'client-error-forbidden',
  1026: 'client-error-not-authenticated',
  1027: 'client-error-not-authorized',
  1028: 'client-error-not-possible',
  1029: 'client-error-timeout',
  1030: 'client-error-not-found',
  1031: 'client-error-gone',
  1032: 'client-error-request-entity-too-large',
  1034: 'client-error-document-format-not-supported',
  1035: 'client-error-attributes-or-values-not-supported',
  1280: 'server-error-internal-error',
  1281: 'server-error-operation-not-supported',
  1282: 'server-error-service-unavailable',
  1283: 'server-error-version-not-supported',
  1284: 'server-error-device-error',
  1285: 'server-error-temporary-error',
  1286: 'server-error-not-accepting-jobs',
  1287: 'server-error-busy',
  1288: 'server-error-job-canceled',
};

export function statusName(code: number): string {
  return STATUS_NAMES[code] ?? `0x${code.toString(16).padStart(4, '0')}`;
}

/** RFC 8011 §5.3.7 job-state. */
export const JobState = {
  pending: 3,
  pendingHeld: 4,
  processing: 5,
  processingStopped: 6,
  canceled: 7,
  aborted: 8,
  completed: 9,
} as const;

export const JOB_STATE_NAMES: Record<number, string> = {
  3: 'pending',
  4: 'pending-held',
  5: 'processing',
  6: 'processing-stopped',
  7: 'canceled',
  8: 'aborted',
  9: 'completed',
};

/** RFC 8011 §5.4.11 printer-state. */
export const PrinterState = { idle: 3, processing: 4, stopped: 5 } as const;

export const PRINTER_STATE_NAMES: Record<number, string> = { 3: 'idle', 4: 'processing', 5: 'stopped' };
