import { describe, expect, it } from 'vitest';
import '../../../drivers/index.js';
import { DailyClosureSchema } from '../../../drivers/epson-fpmate/config.js';
import { fiscalStatus } from '../../../drivers/epson-fpmate/fiscal-status.js';
import { StatusBoard } from '../../../drivers/epson-fpmate/status.js';
import { FiscalState } from '../../../drivers/fiscal-it/rt/fiscal-state.js';
import { ippMessages } from '../../../drivers/ipp-printer/messages.js';
import { ManualClock } from '../../../src/clock.js';
import { messageSource } from '../../../src/messages/catalogue.js';
import { messageRenderer } from '../../../src/messages/render.js';
import { formatFact } from '../../../src/status/page/format.js';
import { renderDevices, splitFacts } from '../../../src/status/page/render-devices.js';
import type { DeviceSnapshot } from '../../../src/status-model.js';
import { memoryStore } from '../../helpers/driver-context.js';

/**
 * A device's card as staff read it: what they act on first, the technical facts folded below,
 * every label and value in the page's language, times in the property's zone.
 */

// Saturday 21 November 2026, 12:00 UTC: 13:00 in Rome.
const NOW = Date.UTC(2026, 10, 21, 12, 0);
const italian = messageRenderer('it', 'Europe/Rome');
const english = messageRenderer('en', 'Europe/Rome');

/** The Epson driver's own status of a printer in service, its day open since 09:10 Rome time. */
function epsonStatus() {
  const clock = new ManualClock(NOW);
  const state = new FiscalState(memoryStore());
  state.dayOpen(Date.UTC(2026, 10, 21, 8, 10), true);
  const board = new StatusBoard(
    clock,
    () => 'http://192.168.1.50',
    (rt) =>
      fiscalStatus({
        rt,
        state,
        closure: DailyClosureSchema.parse({}),
        timeZone: 'Europe/Rome',
        now: clock.now(),
      }),
  );
  board.answered({
    success: true,
    code: '',
    status: '2',
    addInfo: {
      printerStatus: '00110',
      rtMainStatus: '02',
      rtSubStatus: '08',
      mfStatus: '02',
      rtDailyOpen: '1',
      rtFileToSend: '0',
      rtExpiryCD: '20301231',
      rtExpiryCA: '20301231',
    },
  });
  board.noteSerial('99MEY123456');
  board.noteReceipt('0003-0012');
  return board.snapshot();
}

function epsonDevice(): DeviceSnapshot {
  return {
    id: 'rt-1',
    name: 'Reception RT',
    type: 'FiscalMachine',
    driver: 'epson-fpmate',
    queued: 0,
    status: epsonStatus(),
  };
}

/** The `<dt>` labels and `<dd>` values of a fragment of the card, in order. */
function rows(fragment: string): Array<[string, string]> {
  return [...fragment.matchAll(/<dt>([^<]*)<\/dt><dd[^>]*>([^<]*)</g)].map((m) => [
    m[1] as string,
    m[2] as string,
  ]);
}

function card(say = italian): { lead: Array<[string, string]>; technical: Array<[string, string]> } {
  const body = renderDevices([epsonDevice()], NOW, say).value;
  const fold = body.indexOf('<details class="technical"');
  expect(fold).toBeGreaterThan(0);
  return { lead: rows(body.slice(0, fold)), technical: rows(body.slice(fold)) };
}

describe('a device card', () => {
  it('leads with what staff act on, in Italian, times in the property’s zone', () => {
    const { lead } = card();
    expect(lead).toEqual([
      ['Carta', 'presente'],
      ['Coperchio', 'chiuso'],
      ['Giornata fiscale aperta', 'sì'],
      ['Inizio della giornata fiscale', '09:10:00'],
      // Tomorrow: the date is shown with the time.
      ['Prossima chiusura', '22 nov, 03:30:00'],
      ['Ultimo scontrino', '0003-0012'],
      ['Coda', 'libero, 0 in attesa'],
      ['Ultimo contatto', '13:00:00 (0 s fa)'],
    ]);
  });

  it('folds the technical facts under Technical details, every label and word from the catalogue', () => {
    const body = renderDevices([epsonDevice()], NOW, italian).value;
    expect(body).toContain('<summary>Dettagli tecnici</summary>');
    const technical = new Map(card().technical);
    expect(technical.get('Tipo')).toBe('Stampante fiscale (RT) · epson-fpmate');
    expect(technical.get('Codice di stato della stampante')).toBe('00110');
    expect(technical.get('Codice di stato principale RT')).toBe('2');
    expect(technical.get('Stato RT')).toBe('in servizio');
    expect(technical.get('Memoria fiscale')).toBe('in servizio');
    expect(technical.get('Giornale elettronico')).toBe('a posto');
    expect(technical.get('Scadenza del certificato del dispositivo')).toBe('31 dic 2030');
    expect(technical.get('Chiusura giornaliera alle')).toBe('03:30 Europe/Rome');
    // Every fact has its label in the catalogue (none is a key made readable), and no value is
    // an English word or an ISO time.
    const unlabelled = Object.keys(epsonStatus().facts).filter(
      (key) => !messageSource(`label.epson-fpmate.${key}`) && !messageSource(`label.${key}`),
    );
    expect(unlabelled).toEqual([]);
    for (const [label, value] of [...technical, ...card().lead]) {
      expect(value, label).not.toMatch(/\b(in service|ok|closed|yes|unknown)\b|T\d\d:\d\d/);
    }
  });

  it('says the same card in English', () => {
    const { lead, technical } = card(english);
    expect(lead.slice(0, 5)).toEqual([
      ['Paper', 'ok'],
      ['Cover', 'closed'],
      ['Fiscal day open', 'yes'],
      ['Fiscal day open since', '09:10:00'],
      ['Next closure', '22 Nov, 03:30:00'],
    ]);
    expect(new Map(technical).get('RT state')).toBe('in service');
  });

  it('shows every fact of a device that names none for staff, without a fold of facts', () => {
    const { staff, technical } = splitFacts({ paper: 'low', serial: 'X', gone: null }, undefined);
    expect(staff).toEqual([
      ['paper', 'low'],
      ['serial', 'X'],
    ]);
    expect(technical).toEqual([]);
  });

  it('labels a fact about one of several printers with its name', () => {
    const body = renderDevices(
      [
        {
          id: 'p',
          name: 'Office',
          type: 'Printer',
          driver: 'ipp-printer',
          queued: 0,
          status: {
            connected: true,
            summary: ippMessages.notContacted(),
            warnings: [],
            facts: { 'printerState:Reception Laser': ippMessages.stateIdle() },
            staffFacts: ['printerState:Reception Laser'],
          },
        },
      ],
      NOW,
      italian,
    ).value;
    expect(rows(body)[0]).toEqual(['Stampante Reception Laser', 'inattiva']);
  });

  it('shows a calendar date as that day in every zone, and a serial of digits as it is', () => {
    const honolulu = messageRenderer('en', 'Pacific/Honolulu');
    expect(formatFact('2030-12-31', honolulu, NOW)).toBe('31 Dec 2030');
    expect(formatFact('20301231', honolulu, NOW)).toBe('20301231');
    expect(formatFact('2026-11-21T08:10:00.000Z', honolulu, NOW)).toBe('22:10:00');
  });
});
