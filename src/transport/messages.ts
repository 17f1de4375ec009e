import { defineMessages } from '../messages/catalogue.js';

/** What staff read when a transport cannot reach its device. */
export const transportMessages = defineMessages('transport', {
  encoderUnplugged: {
    en: 'The encoder is not connected; check its USB cable.',
    it: 'L’encoder non è collegato: controllare il cavo USB.',
  },
  serialDenied: {
    en: 'The agent is not allowed to use the serial port; ask IT to give it to the agent’s group (frontdesk-agent) with a udev rule.',
    it: 'L’agente non ha il permesso di usare la porta seriale: chiedere all’assistenza tecnica di assegnarla al gruppo dell’agente (frontdesk-agent) con una regola udev.',
  },
  serialBusy: {
    en: 'Another program is using the encoder’s port; close it (or ask IT), then try again.',
    it: 'Un altro programma sta usando la porta dell’encoder: chiuderlo (o rivolgersi all’assistenza tecnica) e riprovare.',
  },
  hidMissing: {
    en: 'The agent cannot use USB HID devices on this PC; ask IT to install libusb-1.0-0 and libudev1.',
    it: 'L’agente non può usare dispositivi USB HID su questo PC: chiedere all’assistenza tecnica di installare libusb-1.0-0 e libudev1.',
  },
  hidDenied: {
    en: 'The agent cannot open the encoder’s USB device; ask IT to install the udev rule (group frontdesk-agent) and re-plug it.',
    it: 'L’agente non riesce ad aprire il dispositivo USB dell’encoder: chiedere all’assistenza tecnica di installare la regola udev (gruppo frontdesk-agent), poi scollegarlo e ricollegarlo.',
  },
});
