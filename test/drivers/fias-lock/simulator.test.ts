import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type FiasRecord, fieldOf, RecordDecoder } from '../../../drivers/fias-lock/records.js';
import {
  type FiasLockServerOptions,
  FiasLockServerSimulator,
} from '../../../drivers/fias-lock/simulator/index.js';
import { eventually } from '../../helpers/eventually.js';

/**
 * The lock-server simulator checked against the IFC8 FIAS Interface Specification 2.20.23
 * (repository atom-tr/fias-integration; "p." = printed page) and open-source lock-side
 * implementations — never against the agent's driver: the PMS side here is a bare TCP server
 * written in this test, sending records as the specification's samples do.
 *
 * Lock-side implementations it follows:
 * - qbollen/PMSIface `PMSInterface/FrmMain.cs` (`Fidelio_Key_Send`): on connect it sends LD
 *   (`IFDL`, `V#`), one LR per record (`LR|RIKR|FL…|`, `LR|RIKA|…`, `LR|RIKD|…`) and LA; it checks
 *   that a KR has KC and RN and that the room exists;
 * - CloudInn/fiastestclient `src/fias.cpp`: a test client that sends LD as soon as it connects;
 * - the GPL `pms_server.cpp` (deisytechbg, a hotel BMS bridge): waits for the PMS's LS, then LD,
 *   the LRs and LA, and takes `DT` as `HH:MM` or `HHMMSS`;
 * - the Hotek PMS bridge notes: the lock server connects and sends LS first; `ASBY` when the
 *   encoder is busy or not found; `DT` as `HHMMSS`.
 */

let server: Server | undefined;
let sim: FiasLockServerSimulator | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  await sim?.close();
  sim = undefined;
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

interface Pms {
  /** Records the simulator sent, in order. */
  got: FiasRecord[];
  /** Sends a record written as text (`LS|DA…|`), framed STX…ETX. */
  send(text: string): void;
  connections: number;
}

/** A PMS side as the specification's samples show it; `greet` sends LS on every connection (p.92). */
async function pms(greet: boolean, simOptions: Partial<FiasLockServerOptions> = {}): Promise<Pms> {
  const state: Pms = { got: [], send: () => undefined, connections: 0 };
  server = createServer((socket) => {
    sockets.push(socket);
    state.connections++;
    const decoder = new RecordDecoder();
    socket.on('data', (chunk: Buffer) => {
      for (const e of decoder.push(chunk)) if (e.kind === 'record') state.got.push(e.record);
    });
    socket.on('error', () => undefined);
    state.send = (text) =>
      socket.write(Buffer.concat([Buffer.of(2), Buffer.from(text, 'latin1'), Buffer.of(3)]));
    if (greet) state.send('LS|DA261004|TI120000|');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  sim = new FiasLockServerSimulator({ host: '127.0.0.1', port, retryMs: 20, ...simOptions });
  sim.start();
  return state;
}

const types = (records: FiasRecord[]) => records.map((r) => r.type);
/** `FLWSKCRN` → WS, KC, RN: field ids are two characters, concatenated (p.20). */
const fieldIds = (fl: string) => fl.match(/../g) ?? [];

/** Links the simulator: LS from the PMS, its LD/LR/LA, the PMS's LA. */
async function linked(simOptions: Partial<FiasLockServerOptions> = {}): Promise<Pms> {
  const p = await pms(true, simOptions);
  await eventually('LD … LA', () => p.got.at(-1)?.type === 'LA');
  p.send('LA|DA261004|TI120001|');
  await eventually('the simulator is linked', () => sim?.alive);
  return p;
}

/** Sends a KR and waits for its KA. */
async function ask(p: Pms, kr: string): Promise<FiasRecord> {
  const before = p.got.length;
  p.send(kr);
  return eventually(`the KA to ${kr}`, () => p.got.slice(before).find((r) => r.type === 'KA'));
}

describe('FIAS lock-server simulator (checked against the specification and lock-side implementations)', () => {
  it('answers the PMS’s LS with LD (IF DL, V#), one LR per record with the mandatory KR fields, and LA (p.19–21, p.92)', async () => {
    const p = await linked();
    expect(types(p.got)).toEqual(['LD', 'LR', 'LR', 'LR', 'LA']);
    const [ld, ...rest] = p.got;
    expect(
      ld && [fieldOf(ld, 'IF'), fieldOf(ld, 'V#'), fieldOf(ld, 'DA')?.length, fieldOf(ld, 'TI')?.length],
    ).toEqual(['DL', '1.0', 6, 6]);
    const lrs = Object.fromEntries(
      rest.filter((r) => r.type === 'LR').map((r) => [fieldOf(r, 'RI'), fieldIds(fieldOf(r, 'FL') ?? '')]),
    );
    // Mandatory fields must be described (p.12): KC, KT, RN, WS for KR (p.62–63); AS, CT, KC, WS for KA (p.64).
    expect(lrs.KR).toEqual(expect.arrayContaining(['KC', 'KT', 'RN', 'WS']));
    expect(lrs.KA).toEqual(expect.arrayContaining(['AS', 'CT', 'KC', 'WS']));
    expect(Object.keys(lrs).sort()).toEqual(['KA', 'KD', 'KR']);
  });

  it('answers an LA it did not ask for with LA, and does not answer the LA that replies to its own (FAQ p.102)', async () => {
    const p = await linked();
    const before = p.got.length;
    p.send('LA|DA261004|TI130000|');
    await eventually('its LA', () => p.got.length === before + 1);
    expect(types(p.got.slice(before))).toEqual(['LA']);
  });

  it('speaks first with LS when the PMS stays silent (p.91), and describes itself again on every LS (p.17)', async () => {
    const p = await pms(false, { startAfterMs: 50 });
    await eventually('its LS', () => p.got.some((r) => r.type === 'LS'));
    p.send('LS|DA261004|TI120000|');
    await eventually('LD … LA', () => p.got.at(-1)?.type === 'LA');
    expect(types(p.got)).toEqual(['LS', 'LD', 'LR', 'LR', 'LR', 'LA']);
  });

  it('ld-first: LD, the LRs and LA as soon as it connects, as qbollen/PMSIface and CloudInn/fiastestclient do', async () => {
    const p = await pms(false, { opening: 'ld-first' });
    await eventually('LD … LA', () => p.got.at(-1)?.type === 'LA');
    expect(types(p.got)).toEqual(['LD', 'LR', 'LR', 'LR', 'LA']);
  });

  it('reads key requests shaped like the specification’s examples (p.66–69) and answers KA with AS, CT, KC, WS', async () => {
    const p = await linked();
    const ka = await ask(p, 'KR|WS3|KC1|RN305|KTN|KO1 2 1|GA261229|GD270102|G#11122|');
    expect(ka.fields.filter(([id]) => ['AS', 'CT', 'KC', 'WS', 'G#'].includes(id))).toEqual([
      ['AS', 'OK'],
      ['CT', 'Key made'],
      ['KC', '1'],
      ['WS', '3'],
      ['G#', '11122'],
    ]);
    // A duplicate with suite rooms (SI, `;`), a one-shot with DT as HH:MM, fields in any order (p.12).
    await ask(p, 'KR|WS9|KC3|RN305|KTD|GA261230|GD270105|G#12345|SI307;309|');
    await ask(p, 'KR|KTO|RN305|WS3|KC1|GA261231|GD261231|DT12:00|');
    // Unknown fields are skipped (the reservation example's `G+`, p.69), names with a comma kept.
    await ask(
      p,
      'KR|DA261004|TI152951|KC10|KTN|IDVisor, Super|RN134|WSFO-PC1|G+35607|DT11:00|G#31717|GA261004|GD261006|GNVoigt, Thomas Herrn|',
    );
    // DT as HHMMSS (a Hotek bridge) and SI with commas (the KZ example, p.68) are read too.
    await ask(p, 'KR|WS1|KC1|RN202|KTN|G#1|GA260704|GD260711|DT120000|SI203,204|');
    expect(
      sim?.cards.map((c) => [c.keyType, c.room, c.suite.join('+'), c.departureTime ?? '', c.guest ?? '']),
    ).toEqual([
      ['N', '305', '', '', ''],
      ['D', '305', '307+309', '', ''],
      ['O', '305', '', '12:00', ''],
      ['N', '134', '', '11:00', 'Voigt, Thomas Herrn'],
      ['N', '202', '203+204', '120000', ''],
    ]);
  });

  it('refuses what it cannot do: a missing mandatory field (UR), an unknown room (NG, p.14), an unknown encoder (BY, Hotek)', async () => {
    const p = await linked({ rooms: ['101'], encoders: ['1'] });
    const status = (ka: FiasRecord) => `${fieldOf(ka, 'AS')} ${fieldOf(ka, 'CT')}`;
    expect(status(await ask(p, 'KR|WS1|RN101|KTN|'))).toBe('UR MISSING KC');
    expect(status(await ask(p, 'KR|WS1|KC1|RN101|KTX|'))).toBe('UR BAD KEY TYPE X');
    expect(status(await ask(p, 'KR|WS1|KC1|RN101|KTN|GD261340|'))).toBe('UR BAD DATE GD');
    expect(status(await ask(p, 'KR|WS1|KC1|RN999|KTN|'))).toBe('NG INVALID ROOM');
    expect(status(await ask(p, 'KR|WS1|KC7|RN101|KTN|'))).toBe('BY ENCODER NOT FOUND');
    expect(sim?.cards).toEqual([]);
  });

  it('answers the PMS’s LE with LE, closes, and connects again (p.28, p.93)', async () => {
    const p = await linked();
    const before = p.got.length;
    p.send('LE|DA261004|TI180000|');
    await eventually('its LE', () => p.got.slice(before).some((r) => r.type === 'LE'));
    await eventually('a new connection', () => p.connections === 2);
  });

  it('scripted faults: no answer, a late answer, a dropped link (with or without the card written)', async () => {
    const p = await linked({ lateMs: 50 });
    sim?.enqueue('silent', 'late', 'drop-after-write');
    p.send('KR|WS1|KC1|RN101|KTN|');
    await eventually('the request is heard', () => sim?.requests.length === 1);
    await ask(p, 'KR|WS1|KC1|RN101|KTD|');
    p.send('KR|WS1|KC1|RN101|KTD|');
    await eventually('a new connection after the drop', () => p.connections === 2);
    expect(sim?.cards.map((c) => c.keyType)).toEqual(['D', 'D']);
    expect(sim?.requests.map((r) => r.behaviour)).toEqual(['silent', 'late', 'drop-after-write']);
  });

  it('the simulator kit’s fault switches: busy is ASBY with no card, a lost answer writes it silently, a reboot drops the link unanswered, then connects again', async () => {
    const p = await linked({ rebootMs: 300 });
    sim?.enqueue('busy', 'lost-answer', 'reboot');
    expect(fieldOf(await ask(p, 'KR|WS1|KC1|RN101|KTN|'), 'AS')).toBe('BY');
    p.send('KR|WS1|KC1|RN101|KTN|');
    p.send('KR|WS1|KC1|RN101|KTD|');
    await eventually('the connection dropped by the reboot', () => sim?.connected === false);
    const heard = p.got.length;
    await eventually('connected again after the reboot', () => p.connections === 2);
    expect(p.got.slice(heard).filter((r) => r.type === 'KA')).toEqual([]);
    expect(sim?.cards.map((c) => c.keyType)).toEqual(['N']);
    expect(sim?.requests.map((r) => r.behaviour)).toEqual(['busy', 'lost-answer', 'reboot']);
  });
});
