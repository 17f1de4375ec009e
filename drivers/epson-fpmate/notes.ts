/**
 * What a receptionist reads (the platform's Notes, the status page) about the fiscal work of
 * issue 14 — VAT natures, payments, deductions, customer codes, voids, unreferenced refunds,
 * reference checks, the daily closure and the printer's RT state — in one place, so that a later
 * catalogue can translate them. Each sentence says what happened, whether anything was printed,
 * and what to do. Ids and numbers only: never a guest's data, never a token.
 */

const NOT_PRINTED = 'nothing was printed';

export const fiscalNotes = {
  unclassifiable: (item: string) =>
    `The bill line "${item}" has no VAT rate and no VAT nature (exempt, not subject, city tax …) the agent can tell; ${NOT_PRINTED}. Ask IT to set its tax code or exemption on the platform, or map it in the driver's itemNatures.`,
  natureWithVat: (item: string, nature: string) =>
    `The bill line "${item}" is marked ${nature} (no VAT) but carries VAT; ${NOT_PRINTED}. Check the item's tax on the platform.`,
  noDepartment: (item: string, what: string) =>
    `The fiscal printer has no department for ${what} (bill line "${item}"); ${NOT_PRINTED}. Ask IT to add it to the driver's departments.`,
  mixedRates: (item: string) =>
    `The bill line "${item}" mixes VAT rates, which one receipt line cannot show; ${NOT_PRINTED}. Split the item on the platform, then issue the receipt again.`,
  unknownPayment: (type: string) =>
    `The bill has a payment of type ${type}, which the agent does not know how to record on the fiscal printer; ${NOT_PRINTED}. Ask IT to map it in the driver's payments.`,
  deductionTooLarge: (what: string) =>
    `The bill's ${what} is larger than what it is deducted from; ${NOT_PRINTED}. Check the bill on the platform.`,
  deductionOnRefund: () =>
    `A refund cannot deduct a deposit or a voucher; ${NOT_PRINTED}. Refund the amounts paid on the platform instead.`,
  badTaxIdentifier: () =>
    `The customer's tax code is neither a valid codice fiscale nor a valid partita IVA (its check digit does not match); ${NOT_PRINTED}. Correct it on the platform, or remove it, then issue the receipt again.`,
  badLotteryCode: () =>
    `The customer's lottery code is not valid (8 letters and digits); ${NOT_PRINTED}. Correct it, or remove it, then issue the receipt again.`,
  noUnreferencedRefunds: () =>
    `The refund does not name the original receipt and the agent is set not to print refunds without one; ${NOT_PRINTED}. Add the original receipt's number on the platform.`,
  referenceRefused: (kind: 'refund' | 'void', label: string, date: string) =>
    `The fiscal printer says receipt ${label} of ${date} cannot be ${kind === 'void' ? 'voided' : 'refunded'} (not found, already voided or already refunded); ${NOT_PRINTED}. Check the receipt's number and date.`,
  voidReceiptMissing: () =>
    'Give the number of the receipt to void as ZZZZ-NNNN (closure number, receipt number), e.g. 0012-0034.',
  voidDateMissing: (label: string) =>
    `The agent does not know when receipt ${label} was printed; give its date (YYYY-MM-DD). Nothing was printed.`,
  voidSerialUnknown: () =>
    `The fiscal printer's serial number is not known yet, so the void cannot name it; ${NOT_PRINTED}. Try again once the printer answers.`,
  closureRefusedThenFailed: (why: string) =>
    `The printer refused the receipt because its fiscal day has been open too long, and the daily closure (Z report) failed too (${why}); ${NOT_PRINTED}. Run the Z report on the printer, then issue the receipt again.`,
  closedThenPrinted: () =>
    'The fiscal day had been open too long: the agent ran the daily closure (Z report) first',
  xReportPrinted: (serial: string) => `X report (daily financial report) printed on RT ${serial}`,
  zReportPrinted: (serial: string, z: number | undefined, verified: boolean) =>
    `Daily closure (Z report${z === undefined ? '' : ` ${z}`}) done on RT ${serial}${verified ? '' : ', as the printer’s state shows after its answer was lost'}`,
  zReportSkipped: () =>
    'No daily closure needed: no receipt was printed since the last Z report. Nothing was printed.',
  reportFailed: (what: string, why: string) => `The ${what} was not printed: ${why}`,
  reportUnknown: (what: string) =>
    `The printer did not confirm the ${what} and its state cannot be read; check the printer before trying again.`,
  dayOpenLong: (hours: number, at: string | undefined) =>
    `The fiscal day has been open for ${hours} hours: the daily closure (Z report) is due — ${at ? `it runs at ${at}, or use Print Z report` : 'run it on the printer or with Print Z report'}.`,
  dayOpenUnknownAge: () =>
    'The fiscal day is open, since before the agent started: if the daily closure (Z report) was not run today, run it.',
  closureFailed: (when: string, why: string) =>
    `The daily closure (Z report) of ${when} failed: ${why}. The agent tries again; if it keeps failing, run the Z report on the printer.`,
  closureMissed: (when: string) =>
    `The daily closure (Z report) of ${when} could not be done. Run the Z report on the printer, or use Print Z report.`,
  closureUnknown: () =>
    'The daily closure (Z report) was sent but its outcome is not known yet; the agent checks the printer before doing anything else.',
  rtNotInService: (state: string) =>
    `The fiscal printer is not in service as an RT (${state}): its receipts are not sent to the tax agency. Call the printer's technician.`,
  fiscalMemoryNotInService: () =>
    'The fiscal printer reports its fiscal memory as not in service. Call the printer’s technician.',
  filesWaiting: (count: number, hours: number) =>
    `${count} daily file(s) have been waiting ${hours} hours to be sent to the tax agency: check the printer’s internet connection.`,
  waitingForClosure: () =>
    'The printer is waiting for the daily closure (Z report): it refuses receipts until it is done.',
  lastActionUnknown: (what: string) =>
    `The agent stopped while a ${what} was being printed and cannot tell whether it was: check the printer’s last receipt.`,
};
