import type { CommandKind, MalformedKind, PlatformSimulator } from '../../src/platform-simulator/index.js';
import type { Rng } from '../../src/platform-simulator/rng.js';
import { FAULT_DEVICES } from './rig.js';

/**
 * The campaign's commands: a fixed composition (so every run has the same number of each kind
 * and at least 200 malformed ones), shuffled by the seed, created one at a time while the faults
 * play. Each planned command remembers what the invariants need to judge it.
 */
export interface PlannedCommand {
  id: string;
  kind: CommandKind;
  deviceId: string;
  /** "fiscal-payload on RT Epson (malformed: bad-base64)": for failure messages. */
  label: string;
  /** The agent must bring it to a terminal state; otherwise it must never touch it. */
  owned: boolean;
  malformed?: MalformedKind;
  keyCount?: number;
  /**
   * Salto and FIAS keys: the reservation number its cards carry (Salto prints `Res. <number>`,
   * FIAS sends it as `G#`), unique per command.
   */
  reservationNumber?: string;
}

export interface Spec {
  kind: CommandKind;
  deviceId: string;
  malformed?: MalformedKind;
}

const DEVICE_NAMES: Record<string, string> = {
  [FAULT_DEVICES.simFiscalA]: 'RT sim A',
  [FAULT_DEVICES.simFiscalB]: 'RT sim B',
  [FAULT_DEVICES.simKeys]: 'Encoder sim',
  [FAULT_DEVICES.epson]: 'RT Epson',
  [FAULT_DEVICES.salto]: 'Encoder Salto',
  [FAULT_DEVICES.fias]: 'Encoder FIAS',
  [FAULT_DEVICES.custom]: 'RT Custom',
  [FAULT_DEVICES.rch]: 'RT RCH',
  [FAULT_DEVICES.printer]: 'Laser (not ours)',
};

const FISCAL = [
  FAULT_DEVICES.simFiscalA,
  FAULT_DEVICES.simFiscalB,
  FAULT_DEVICES.epson,
  FAULT_DEVICES.custom,
  FAULT_DEVICES.rch,
];
const KEYS = [FAULT_DEVICES.simKeys, FAULT_DEVICES.salto, FAULT_DEVICES.fias];
/** Key encoders whose cards name their command's reservation. */
const BY_RESERVATION: readonly string[] = [FAULT_DEVICES.salto, FAULT_DEVICES.fias];

const MALFORMED_FOR: Record<'fiscal-payload' | 'fiscal-data' | 'keys', MalformedKind[]> = {
  'fiscal-payload': ['bad-base64', 'garbage-fiscal-machine-data', 'missing-field', 'unknown-device-type'],
  'fiscal-data': ['garbage-fiscal-machine-data', 'missing-field', 'unknown-device-type'],
  keys: ['garbage-fiscal-machine-data', 'missing-field', 'unknown-device-type'],
};

export interface Composition {
  wellFormed: number;
  malformed: number;
  /** Of the malformed ones: 256 KiB strings (few: each one weighs on every listing). */
  huge: number;
  printer: number;
}

/** The shuffled list of command specs for one run. */
export function compose(rng: Rng, c: Composition): Spec[] {
  const specs: Spec[] = [];
  const wellFormed: Array<() => Spec> = [
    () => ({
      kind: 'fiscal-payload',
      deviceId: rng.pick([FAULT_DEVICES.simFiscalA, FAULT_DEVICES.simFiscalB]),
    }),
    () => ({ kind: 'fiscal-data', deviceId: rng.pick([FAULT_DEVICES.simFiscalA, FAULT_DEVICES.simFiscalB]) }),
    () => ({ kind: 'fiscal-payload', deviceId: FAULT_DEVICES.epson }),
    () => ({ kind: 'fiscal-data', deviceId: FAULT_DEVICES.epson }),
    // A Custom printer prints the bill data; now and then it meets an Epson document as payload,
    // which it must refuse before sending anything (issue 25.5).
    () => ({ kind: rng.chance(0.15) ? 'fiscal-payload' : 'fiscal-data', deviceId: FAULT_DEVICES.custom }),
    // An RCH printer prints the bill data only (the platform writes its payloads for Epson).
    () => ({ kind: 'fiscal-data', deviceId: FAULT_DEVICES.rch }),
    () => ({ kind: 'keys', deviceId: FAULT_DEVICES.simKeys }),
    () => ({ kind: 'keys', deviceId: FAULT_DEVICES.salto }),
    () => ({ kind: 'keys', deviceId: FAULT_DEVICES.fias }),
  ];
  for (let i = 0; i < c.wellFormed; i++) specs.push((wellFormed[i % wellFormed.length] as () => Spec)());
  for (let i = 0; i < c.malformed; i++) {
    const kind = rng.pick(['fiscal-payload', 'fiscal-data', 'keys'] as const);
    const deviceId = rng.pick(kind === 'keys' ? KEYS : FISCAL);
    const malformed: MalformedKind = i < c.huge ? 'huge-strings' : rng.pick(MALFORMED_FOR[kind]);
    specs.push({ kind, deviceId, malformed });
  }
  for (let i = 0; i < c.printer; i++) specs.push({ kind: 'printer', deviceId: FAULT_DEVICES.printer });
  for (let i = specs.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [specs[i], specs[j]] = [specs[j] as Spec, specs[i] as Spec];
  }
  return specs;
}

/**
 * Creates one planned command on the platform. Salto and FIAS key commands take the next unused
 * reservation (`reservations` is consumed), so each of their cards names its command.
 */
export function createPlanned(
  sim: PlatformSimulator,
  spec: Spec,
  rng: Rng,
  reservations: Array<{ id: string; number: string }>,
): PlannedCommand {
  const options = {
    deviceId: spec.deviceId,
    ...(spec.malformed ? { malformed: spec.malformed } : {}),
  };
  let keyCount: number | undefined;
  let reservation: { id: string; number: string } | undefined;
  let view: ReturnType<PlatformSimulator['createKeys']>;
  switch (spec.kind) {
    case 'fiscal-payload':
      view = sim.createFiscalPayload({ ...options, envelope: rng.chance(0.5) ? 'soap' : 'bare' });
      break;
    case 'fiscal-data':
      view = sim.createFiscalData(options);
      break;
    case 'keys': {
      keyCount = rng.int(1, 3);
      if (BY_RESERVATION.includes(spec.deviceId)) {
        reservation = reservations.shift();
        if (!reservation)
          throw new Error('the scenario ran out of reservations for Salto and FIAS key commands');
      }
      view = sim.createKeys({
        ...options,
        keyCount,
        ...(reservation ? { reservationId: reservation.id } : {}),
      });
      break;
    }
    default:
      view = sim.createPrint({ deviceId: spec.deviceId });
  }
  const name = DEVICE_NAMES[spec.deviceId] ?? spec.deviceId;
  const planned: PlannedCommand = {
    id: view.id,
    kind: spec.kind,
    deviceId: spec.deviceId,
    label: `${spec.kind} on ${name}${spec.malformed ? ` (malformed: ${spec.malformed})` : ''}`,
    owned: spec.deviceId !== FAULT_DEVICES.printer && spec.malformed !== 'unknown-device-type',
  };
  if (spec.malformed) planned.malformed = spec.malformed;
  if (keyCount !== undefined) planned.keyCount = keyCount;
  if (reservation) planned.reservationNumber = reservation.number;
  return planned;
}
