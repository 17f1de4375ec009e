import type { EncoderBehaviour } from '../../drivers/salto-encoder/simulator/index.js';
import type { SimCounters } from '../../src/platform-simulator/index.js';
import type { DaemonHandle } from '../helpers/daemon.js';
import { type ChaosLog, daemonReady, type QuietLock } from './chaos.js';
import type { SpoilMode } from './reply-mangler.js';
import { FAULT_DEVICES, type Rig } from './rig.js';
import type { Traffic } from './traffic.js';

/**
 * What the campaign does to the world while commands flow, as a sequence of acts. Each act turns
 * a fault on, waits for the event or count that proves the agent met it ("the printer refused two
 * receipts for paper", "six 429 answers were consumed", "the daemon shows the encoder
 * unplugged"), keeping the device concerned at work meanwhile, and turns it off. Nothing waits for
 * a time, so a slow machine stretches the run but cannot make a fault miss.
 */

export interface Act {
  what: string;
  /** Runs with the daemon up and no kill until it ends (outages, 429 storms). */
  quiet?: boolean;
  run(): Promise<void>;
}

export interface ActContext {
  rig: Rig;
  traffic: Traffic;
  daemon: DaemonHandle;
}

const RECEIPT = 'printerFiscalReceipt';

/** A device as the daemon's status page shows it; throws while the daemon is down. */
async function shown(daemon: DaemonHandle, deviceId: string): Promise<{ connected: boolean } | undefined> {
  const answer = await daemon.staff('/status.json');
  const snapshot = answer.json() as {
    devices: Array<{ id: string; status: { connected: boolean } }>;
  };
  return snapshot.devices.find((d) => d.id === deviceId)?.status;
}

/** Whether the daemon's page shows a document waiting for the printer to come back (settle.ts). */
async function settling(daemon: DaemonHandle, deviceId: string): Promise<boolean> {
  const answer = await daemon.staff('/status.json');
  const snapshot = answer.json() as { devices: Array<{ id: string; status: unknown }> };
  const status = snapshot.devices.find((d) => d.id === deviceId)?.status;
  return JSON.stringify(status ?? {}).includes('waitingToSettle');
}

/** What the acts count for the campaign's own proof that they did what they claim. */
export interface FaultTally {
  /** Custom RT documents printed whose answer the printer never sent. */
  customAnswersLost: number;
  /** RCH RT documents printed whose connection the printer closed unanswered. */
  rchAnswersLost: number;
}

export function faultActs({ rig, traffic, daemon }: ActContext, tally: FaultTally): Act[] {
  const { platform, printer, mangler, salto, fias, custom, rch } = rig;
  const epson = FAULT_DEVICES.epson;
  const customRt = FAULT_DEVICES.custom;
  const rchRt = FAULT_DEVICES.rch;
  /** Fiscal documents the RCH RT printed since its `from`-th. */
  const rchPrintedSince = (from: number) =>
    rch.documents.slice(from).filter((d) => d.kind === 'sale' || d.kind === 'refund' || d.kind === 'void')
      .length;
  /** Fiscal documents the Custom RT printed since its `from`-th. */
  const customPrintedSince = (from: number) =>
    custom.printed.slice(from).filter((d) => d.kind === 'sale' || d.kind === 'refund' || d.kind === 'void')
      .length;
  const faults = (): SimCounters['faults'] => platform.counters().faults;
  /** Receipts that reached the printer since exchange number `from`. */
  const receiptsSince = (from: number) =>
    mangler.exchanges.slice(from).filter((e) => e.root === RECEIPT && e.outcome === 'passed').length;

  /** Exchanges the printer answered since exchange number `from`. */
  const answeredSince = (from: number) =>
    mangler.exchanges.slice(from).filter((e) => e.outcome === 'passed').length;
  const printerSwitch = (
    name: 'paperOut' | 'busy',
    what: string,
    met: string,
    proof: (from: number) => boolean,
  ): Act => ({
    what: `printer: ${what}`,
    async run() {
      await printer.setFault(name, true);
      const from = mangler.exchanges.length;
      await traffic.until(met, () => proof(from), epson);
      await printer.setFault(name, false);
    },
  });
  /**
   * Pulls the encoder's cable right after it accepted (ACK) a request it will never carry out
   * (`silent`), `times` times, each after the `before` requests: an unplug between a request and
   * its card would leave it to the machine's timing whether the card was written and whether the
   * ACK got out — this way nothing is half-done, whatever the timing, and the cards of the job's
   * earlier keys are cut for sure. Plugs back at once when `plugBack`.
   */
  const unplugOnSilent = (times: number, plugBack: boolean, before: EncoderBehaviour[] = []) => {
    for (let i = 0; i < times; i++) salto.sim.enqueue(...before, 'silent');
    let count = 0;
    const stop = salto.sim.onRequest((request) => {
      if (request.behaviour !== 'silent' || count >= times) return;
      count++;
      void salto.unplug().then(() => (plugBack ? salto.plug() : undefined));
    });
    return { count: () => count, stop };
  };
  const spoil = (mode: SpoilMode, what: string): Act => ({
    what: `printer answers ${what} for the next 2 receipts`,
    async run() {
      mangler.spoil(mode, 2);
      await traffic.until(`2 receipts answered ${what}`, () => mangler.pending === 0, epson);
    },
  });
  const websocketDrops = (count: number): Act => ({
    what: `WebSocket dropped ${count} times, each time the daemon has reconnected`,
    async run() {
      for (let i = 1; i <= count; i++) {
        await traffic.until(`the daemon to reconnect its WebSocket (drop ${i} of ${count})`, () => {
          if (platform.openWebSockets === 0) return false;
          platform.dropWebSockets();
          return true;
        });
      }
    },
  });
  const storm = (next: number, retryAfterSeconds: number): Act => ({
    what: `429 storm: the next ${next} requests, Retry-After ${retryAfterSeconds}`,
    quiet: true,
    async run() {
      const target = faults()['rate-limit-burst'] + next;
      platform.setFaults({ rateLimitBurst: { next, retryAfterSeconds } });
      await traffic.until(
        `${next} requests to be answered 429`,
        () => faults()['rate-limit-burst'] >= target,
        FAULT_DEVICES.simFiscalA,
      );
    },
  });

  return [
    printerSwitch(
      'paperOut',
      'out of paper for the next 2 receipts',
      '2 receipts to reach the printer while out of paper',
      (from) => receiptsSince(from) >= 2,
    ),
    websocketDrops(4),
    // A busy printer answers everything busy: the driver may never get as far as a receipt.
    printerSwitch(
      'busy',
      'busy for the next 3 exchanges',
      'the printer to answer 3 exchanges busy',
      (from) => answeredSince(from) >= 3,
    ),
    {
      what: 'platform outage: 503 on the next 8 requests, WebSocket refused meanwhile',
      quiet: true,
      async run() {
        const target = faults()['server-error'] + 8;
        platform.setFaults({ serverErrors: { next: 8, status: 503 }, websocket: { refuse: true } });
        platform.dropWebSockets();
        await traffic.until(
          '8 requests to be answered 503',
          () => faults()['server-error'] >= target,
          FAULT_DEVICES.simFiscalB,
        );
        platform.setFaults({ serverErrors: {}, websocket: {} });
      },
    },
    {
      what: 'encoder unplugged (right after it took a request it will not carry out) until the daemon shows it so',
      async run() {
        const unplugged = unplugOnSilent(1, false);
        await traffic.until(
          'the encoder to be unplugged and the daemon to show it disconnected',
          async () =>
            unplugged.count() >= 1 && (await shown(daemon, FAULT_DEVICES.salto))?.connected === false,
          FAULT_DEVICES.salto,
        );
        unplugged.stop();
        await salto.plug();
      },
    },
    spoil('dropped-after', 'with a dropped connection after printing'),
    storm(6, 2),
    {
      what: 'encoder: garbage, bad LRC, split, busy and NAK replies (12 scripted)',
      async run() {
        const from = salto.sim.requests.length;
        salto.sim.enqueue(
          'garbage',
          'bad-lrc',
          'split',
          'nak-then-ack',
          'garbage',
          'busy',
          'bad-lrc',
          'garbage',
          'split',
          { reply: 'EG', text: 'lock server glitch' },
          'garbage',
          'bad-lrc',
        );
        const garbage = () => salto.sim.requests.slice(from).filter((r) => r.behaviour === 'garbage').length;
        await traffic.until(
          'the encoder to have answered garbage 4 times',
          () => garbage() >= 4,
          FAULT_DEVICES.salto,
        );
      },
    },
    {
      what: 'FIAS lock server: the link dropped right after it wrote a card, twice (the lock server connects again)',
      async run() {
        const from = fias.sim.requests.length;
        fias.sim.enqueue('ok', 'drop-after-write', 'ok', 'drop-after-write');
        const drops = () =>
          fias.sim.requests.slice(from).filter((r) => r.behaviour === 'drop-after-write').length;
        await traffic.until(
          'the FIAS link to drop twice after a written card, and the lock server to be linked again',
          () => drops() >= 2 && fias.sim.alive,
          FAULT_DEVICES.fias,
        );
      },
    },
    {
      // Issue 26 item 5: the receipt waits (Processing, a warning on the page) and is settled from
      // the printer's counters once it answers again — printed once, never Error, never resent.
      what: 'printer vanishes right after printing a receipt, until the daemon shows the receipt waiting for it',
      // No kill inside: a restart would meet an unreachable printer before its reconcile could wait.
      quiet: true,
      async run() {
        mangler.spoil('vanished-after', 1);
        await traffic.until(
          'the printer to vanish after a receipt and the daemon to show the receipt waiting for it',
          async () => mangler.pending === 0 && (await settling(daemon, epson)),
          epson,
        );
        await mangler.setRefused(false);
        await traffic.until(
          'the receipt to be settled from the counters (the warning gone)',
          async () => !(await settling(daemon, epson)),
          epson,
        );
      },
    },
    {
      // Issue 25: the answer to a printed document never comes (the connection drops after the
      // print); the driver must find it in the printer (lastIdCmd, 1017, counters), never resend.
      // Issue 43: the same for the RCH RT, whose witnesses are lastCmd, its counters and the
      // marker line in its journal. Both printers at once, so the campaign takes no longer.
      what: 'Custom RT and RCH RT lose their answers after printing, for their next 2 documents each',
      async run() {
        await Promise.all([custom.setFault('loseAnswer', true), rch.setFault('dropAfterPrint', true)]);
        const fromCustom = custom.printed.length;
        const fromRch = rch.documents.length;
        await Promise.all([
          traffic
            .until(
              '2 Custom documents printed without an answer',
              () => customPrintedSince(fromCustom) >= 2,
              customRt,
            )
            .then(async () => {
              await custom.setFault('loseAnswer', false);
              tally.customAnswersLost += customPrintedSince(fromCustom);
            }),
          traffic
            .until('2 RCH documents printed without an answer', () => rchPrintedSince(fromRch) >= 2, rchRt)
            .then(async () => {
              await rch.setFault('dropAfterPrint', false);
              tally.rchAnswersLost += rchPrintedSince(fromRch);
            }),
        ]);
      },
    },
    spoil('garbage-after', 'with garbage after printing'),
    spoil('truncated-after', 'cut in half after printing'),
    {
      what: 'printer refuses connections until the daemon shows it unreachable',
      async run() {
        await Promise.all([printer.setFault('refused', true), mangler.setRefused(true)]);
        await traffic.until(
          'the daemon to show the Epson RT unreachable',
          async () => (await shown(daemon, epson))?.connected === false,
          epson,
        );
        await Promise.all([printer.setFault('refused', false), mangler.setRefused(false)]);
      },
    },
    {
      what: 'encoder unplugged mid-job on every third request, twice (plugged back at once)',
      async run() {
        const unplugged = unplugOnSilent(2, true, ['normal', 'normal']);
        await traffic.until(
          '2 mid-job unplugs',
          () => unplugged.count() >= 2 && salto.plugged,
          FAULT_DEVICES.salto,
        );
        unplugged.stop();
      },
    },
    {
      what: 'platform: every 3rd request reset (4 times), every 4th of the others left unanswered (2 times)',
      async run() {
        const resets = faults().reset + 4;
        const hangs = faults().hang + 2;
        platform.setFaults({ resets: { next: 4, every: 3 }, hangs: { next: 2, every: 4 } });
        await traffic.until(
          '4 resets and 2 hangs',
          () => faults().reset >= resets && faults().hang >= hangs,
          FAULT_DEVICES.simKeys,
        );
      },
    },
    {
      what: 'FIAS lock server: refuses a key (DN), is busy (BY twice), never answers one (written)',
      async run() {
        const from = fias.sim.requests.length;
        fias.sim.enqueue(
          { answer: 'DN', text: 'Guest checked out' },
          { answer: 'BY' },
          { answer: 'BY' },
          'write-silent',
        );
        await traffic.until(
          'the FIAS lock server to have played its 4 answers',
          () => fias.sim.requests.length >= from + 4,
          FAULT_DEVICES.fias,
        );
      },
    },
    {
      what: 'Custom RT out of paper until 2 receipts reached it',
      async run() {
        await custom.setFault('paperOut', true);
        const from = custom.requests.length;
        await traffic.until(
          '2 receipts to reach the Custom RT while out of paper',
          () => custom.requests.slice(from).filter((root) => root === RECEIPT).length >= 2,
          customRt,
        );
        await custom.setFault('paperOut', false);
      },
    },
    {
      what: 'Custom RT refuses connections until the daemon shows it unreachable',
      async run() {
        await custom.setFault('refused', true);
        await traffic.until(
          'the daemon to show the Custom RT unreachable',
          async () => (await shown(daemon, customRt))?.connected === false,
          customRt,
        );
        await custom.setFault('refused', false);
      },
    },
    storm(4, 3),
    websocketDrops(3),
    spoil('garbage-instead', 'with garbage, without printing'),
  ];
}

/**
 * Plays the acts in order, each after `gap` more commands have finished (so faults alternate with
 * normal work); quiet acts take the lock, so no kill lands inside them.
 */
export async function playActs(
  acts: readonly Act[],
  context: ActContext & { lock: QuietLock; log: ChaosLog; gap: number },
): Promise<void> {
  const { traffic, lock, log, daemon, gap } = context;
  for (const act of acts) {
    await traffic.progress(gap, FAULT_DEVICES.simFiscalA);
    const play = async () => {
      log.note(`${act.what}: on`);
      await act.run();
      log.note(`${act.what}: done`);
    };
    if (act.quiet) {
      await lock.hold(async () => {
        await daemonReady(daemon);
        await play();
      });
    } else {
      await play();
    }
  }
  log.note('every act played');
}
