import { type IppPrinterOptions, IppPrinterOptionsSchema } from '../../../../drivers/ipp-printer/config.js';
import { IppPrinterDriver } from '../../../../drivers/ipp-printer/driver.js';
import { startIppSimulator } from '../../../../drivers/ipp-printer/simulator/index.js';
import { memoryStore, testDriverContext } from '../../../helpers/driver-context.js';
import { PRINTER, printJob } from '../../ipp-printer/helpers.js';
import {
  DBUS_DAEMON,
  IPPEVEPRINTER,
  type Ippeve,
  startIppeveprinter,
} from '../../ipp-printer/ippeveprinter.js';
import { startTcpProxy, type TcpProxy } from '../../ipp-printer/tcp-proxy.js';
import { startSilentServer } from '../checks.js';
import type { ContractEntry, ContractRig } from '../entry.js';

/**
 * ipp-printer against its IPP printer simulator and against CUPS's `ippeveprinter`, each behind a
 * loopback TCP proxy: the proxy going down is the printer going away (connections refused), and
 * it tells of every Print-Job request before the printer gets it — the side effect is a document
 * the printer accepted. Finished means printed: the simulator knows; `ippeveprinter`'s spool keeps
 * a document whether it was printed or cancelled, so the abort check runs on the simulator only.
 */

const BASE = {
  cupsQueues: false,
  pollIntervalMs: 50,
  statusIntervalMs: 0,
  offlineWaitMs: 0,
  requestTimeoutMs: 3000,
};

function driverFor(uri: string, extra: Partial<IppPrinterOptions> = {}, store = memoryStore()) {
  const options = IppPrinterOptionsSchema.parse({ ...BASE, printers: { [PRINTER]: uri }, ...extra });
  return new IppPrinterDriver(options, testDriverContext({ store }));
}

let rigs = 0;

/** What both IPP entries share: the proxy in front of `path` on the printer's port. */
async function proxiedRig(
  port: number,
  path: string,
  counts: { effects: (prefix: string) => number; finished?: () => number },
  dispose: () => Promise<void>,
): Promise<ContractRig> {
  const proxy: TcpProxy = await startTcpProxy(port);
  const store = memoryStore();
  const prefix = `c${++rigs}x`;
  let jobs = 0;
  const rig: ContractRig = {
    driver: () => driverFor(`ipp://127.0.0.1:${proxy.port}${path}`, {}, store),
    job: () => printJob({}, { commandId: `${prefix}${++jobs}` }),
    units: 1,
    effects: () => counts.effects(prefix),
    onEffect: (listener) => proxy.onPrintJob(listener),
    device: {
      gone: () => proxy.setDown(true),
      back: () => proxy.setDown(false),
      silent: async () => {
        const server = await startSilentServer();
        const driver = driverFor(`ipp://127.0.0.1:${server.port}${path}`, { requestTimeoutMs: 60_000 });
        return { driver, asked: server.asked, dispose: server.close };
      },
    },
    dispose: async () => {
      await proxy.close();
      await dispose();
    },
  };
  if (counts.finished) rig.finished = counts.finished;
  return rig;
}

let ippeve: Promise<Ippeve> | undefined;

export const ippEntries: ContractEntry[] = [
  {
    name: 'ipp-printer against its IPP printer simulator',
    kind: 'ipp-printer',
    offers: { device: true, effectMoment: true, finished: true },
    rig: async () => {
      const sim = await startIppSimulator({ printers: [{ name: PRINTER, pageMs: 5 }] });
      const path = new URL(sim.printerUri(PRINTER)).pathname;
      return proxiedRig(
        sim.port,
        path,
        {
          effects: (prefix) => sim.spooled().filter((d) => d.jobName.startsWith(prefix)).length,
          finished: () => sim.printer(PRINTER).printed.length,
        },
        () => sim.close(),
      );
    },
  },
  {
    name: "ipp-printer against CUPS's ippeveprinter",
    kind: 'ipp-printer',
    tools: [
      { tool: IPPEVEPRINTER, why: 'the IPP driver is checked against a real IPP printer' },
      { tool: DBUS_DAEMON, why: 'ippeveprinter needs a D-Bus for Avahi' },
    ],
    offers: { device: true, effectMoment: true, finished: false },
    rig: async () => {
      ippeve ??= startIppeveprinter({ pageDelay: 0.01 });
      const printer = await ippeve;
      return proxiedRig(
        printer.port,
        '/ipp/print',
        { effects: (prefix) => printer.documents().filter((d) => d.jobName.startsWith(prefix)).length },
        async () => undefined,
      );
    },
    shutdown: async () => {
      const printer = await ippeve;
      ippeve = undefined;
      await printer?.stop();
    },
  },
];
