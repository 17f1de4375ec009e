import type { ManualClock } from '../../../../src/clock.js';
import { rchRig, SERIAL } from '../../rch-rt/helpers.js';
import {
  type MatrixFamily,
  type MatrixRig,
  type MatrixSimulator,
  matrixRigOf,
  matrixRigOptions,
} from '../family.js';

/**
 * RCH (web service, `POST /service.cgi`) against its simulator. No request id: its witnesses are
 * `lastCmd`, the counters (`<</?7`, `<</?s` `lastDocF`) and the marker line in the journal's last
 * document (drivers/rch-rt/witnesses.ts). Another till's document is a real state of the printer
 * (`<</?s` `idleState`); a request meanwhile is answered busy.
 */
export const rchMatrix: MatrixFamily = {
  kind: 'rch-rt',
  notApplicable: {
    'status 76 after print':
      'a Custom status code (XML protocol rev 2.00 p.137); an RCH answer has no such state (lyancoder/fiscal-printer lib/printer/RCH/xml-RCH-http.ts: errorCode, printerError, paperEnd, coverOpen, lastCmd, busy), and a document it took it answers with lastCmd',
  },
  busy: {
    expect: 'DEVICE_BUSY',
    source:
      'RCH "Manuale Web Service Print! F" V5 R03/2019 §3: a busy answer carries nothing out and "la richiesta deve essere inviata nuovamente" (drivers/rch-rt/errors.ts busyError)',
  },
  rig: async (clock: ManualClock, o = {}): Promise<MatrixRig> => {
    const shared = matrixRigOptions(clock, o);
    const r = await rchRig({
      ...shared,
      sim: { clock },
      // An RCH answers busy while it carries out another request (WS manual V5 §3): the reads
      // after a kill outlast the 30-second print of "kill while printing".
      driver: { ...shared.driver, documentTimeoutMs: 5_000, busyRetries: 5, busyRetryDelayMs: 8_000 },
    });
    const sim = r.sim;
    const ours = () => sim.documents.filter((d) => d.terminal === 'web-service');
    const matrixSim: MatrixSimulator = {
      get printed() {
        return ours().map((d) => ({ kind: d.kind, z: d.z, doc: d.number, at: d.at, lines: d.lines }));
      },
      // The matrix names a printed document's request as fpmate's and Custom's root.
      onHandled: (listener) =>
        sim.onHandled((h) =>
          listener({ root: h.printed ? 'printerFiscalReceipt' : 'query', printed: h.printed }),
        ),
      reboot: () => void sim.reboot(),
      // "The answer to documents waits": a query meanwhile is answered busy.
      setFault: (name, value) => sim.setFault(name, { ...value, printedOnly: true }),
    };
    return matrixRigOf(r, matrixSim, SERIAL, {
      loseAnswers: (on) => sim.setFault('dropAfterPrint', on),
      unreadableWitness: () => sim.setFault('journalUnreadable', true),
      busy: (on) => sim.setFault('busy', on),
      shared: {
        refuseEnd: (code) => sim.setFault('refusePayment', code ? { code } : false),
        openForeign: () => void sim.setFault('otherTerminalDocument', { closeAs: 'printed' }),
        endForeign: () => void sim.setFault('otherTerminalDocument', false),
        foreignResets: () => sim.requests.filter((commands) => commands.includes('=a')).length,
        foreignOpensBeforeNextDocument: () => {
          const off = sim.onHandled((h) => {
            if (!h.commands.includes('<</?s')) return;
            off();
            void sim.setFault('otherTerminalDocument', { closeAs: 'printed' });
          });
        },
      },
    });
  },
};
