import { emailFor, GUEST_NAMES, normalizeName, type PersonName } from './names.js';
import type { Rng } from './rng.js';
import type { Scenario, ScenarioDevice } from './scenario.js';
import { localDate, zonedToUtc } from './time.js';

/**
 * The static side of the simulated property: enterprises, devices, rooms, reservations and
 * guests. Built once from the scenario with the seeded `world` stream, so ids and names are the
 * same on every run with the same seed.
 */

export interface SimEnterprise {
  id: string;
  name: string;
  timezone: string;
}

export type SimDevice = ScenarioDevice & { enterpriseId: string };

export interface SimRoom {
  number: string;
  lockIds: string[];
}

export interface SimGuest extends PersonName {
  normalizedFirstName?: string;
  normalizedLastName?: string;
  email: string;
  telephone: string;
  customerId: string;
}

export interface SimReservation {
  id: string;
  number: string;
  enterpriseId: string;
  guest: SimGuest;
  rooms: string[];
  /** Lock ids of every room, in room order. */
  lockIds: string[];
  /** Check-in 14:00 and check-out 11:00, property-local, as epoch ms. */
  startUtc: number;
  endUtc: number;
  nights: number;
}

export interface World {
  enterprises: SimEnterprise[];
  devices: SimDevice[];
  rooms: SimRoom[];
  reservations: SimReservation[];
  enterprise(id: string): SimEnterprise | undefined;
  device(id: string): SimDevice | undefined;
  reservation(id: string): SimReservation | undefined;
}

function defaultRooms(): SimRoom[] {
  const rooms: SimRoom[] = [];
  for (let floor = 1; floor <= 3; floor++) {
    for (let n = 1; n <= 10; n++) {
      const number = `${floor}${String(n).padStart(2, '0')}`;
      rooms.push({ number, lockIds: [number] });
    }
  }
  return rooms;
}

function telephone(rng: Rng): string {
  return `+39 3${rng.int(20, 99)} ${rng.int(100, 999)} ${rng.int(1000, 9999)}`;
}

function guest(rng: Rng, name: PersonName, n: number, email?: string, phone?: string): SimGuest {
  const g: SimGuest = {
    ...name,
    email: email ?? emailFor(name, n),
    telephone: phone ?? telephone(rng),
    customerId: rng.uuid(),
  };
  const nf = normalizeName(name.firstName);
  const nl = normalizeName(name.lastName);
  if (nf) g.normalizedFirstName = nf;
  if (nl) g.normalizedLastName = nl;
  return g;
}

function stay(arrival: [number, number, number], nights: number, timeZone: string): [number, number] {
  const [y, m, d] = arrival;
  const start = zonedToUtc(y, m, d, 14, 0, timeZone);
  const out = new Date(Date.UTC(y, m - 1, d + nights));
  const end = zonedToUtc(out.getUTCFullYear(), out.getUTCMonth() + 1, out.getUTCDate(), 11, 0, timeZone);
  return [start, end];
}

export function buildWorld(scenario: Scenario, rng: Rng, now: number): World {
  const enterprises: SimEnterprise[] = scenario.enterprises.map((e) => ({ ...e }));
  const first = enterprises[0] as SimEnterprise;
  const devices: SimDevice[] = scenario.devices.map((d) => ({
    ...d,
    enterpriseId: d.enterpriseId ?? first.id,
  }));
  const rooms: SimRoom[] = scenario.rooms
    ? scenario.rooms.map((r) => ({ number: r.number, lockIds: r.lockIds ?? [r.number] }))
    : defaultRooms();
  const roomByNumber = new Map(rooms.map((r) => [r.number, r]));
  const lockIdsOf = (numbers: string[]) =>
    numbers.flatMap((n) => roomByNumber.get(n)?.lockIds ?? [n]).filter((v, i, all) => all.indexOf(v) === i);
  const reservations: SimReservation[] = [];
  let counter = 4100;

  scenario.reservations.list.forEach((r, i) => {
    const enterprise = enterprises.find((e) => e.id === r.enterpriseId) ?? first;
    const arrival = r.arrival
      ? (r.arrival.split('-').map(Number) as [number, number, number])
      : localDate(now, enterprise.timezone);
    const [startUtc, endUtc] = stay(arrival, r.nights, enterprise.timezone);
    const name: PersonName = r.firstName
      ? { firstName: r.firstName, lastName: r.lastName }
      : { lastName: r.lastName };
    reservations.push({
      id: r.id ?? rng.uuid(),
      number: r.number ?? String(++counter),
      enterpriseId: enterprise.id,
      guest: guest(rng, name, i, r.email, r.telephone),
      rooms: r.rooms,
      lockIds: lockIdsOf(r.rooms),
      startUtc,
      endUtc,
      nights: r.nights,
    });
  });

  for (let i = 0; i < scenario.reservations.generate; i++) {
    const enterprise = enterprises[i % enterprises.length] as SimEnterprise;
    const name = GUEST_NAMES[i % GUEST_NAMES.length] as PersonName;
    const nights = rng.int(1, 6);
    const arrival = localDate(now - rng.int(0, 2) * 86_400_000, enterprise.timezone);
    const [startUtc, endUtc] = stay(arrival, nights, enterprise.timezone);
    const first = rng.pick(rooms);
    const numbers = rng.chance(0.15) ? [first.number, rng.pick(rooms).number] : [first.number];
    const unique = numbers.filter((v, j, all) => all.indexOf(v) === j);
    reservations.push({
      id: rng.uuid(),
      number: String(++counter),
      enterpriseId: enterprise.id,
      guest: guest(rng, name, i),
      rooms: unique,
      lockIds: lockIdsOf(unique),
      startUtc,
      endUtc,
      nights,
    });
  }

  const byId = <T extends { id: string }>(items: T[]) => {
    const map = new Map(items.map((item) => [item.id, item]));
    return (key: string) => map.get(key);
  };
  return {
    enterprises,
    devices,
    rooms,
    reservations,
    enterprise: byId(enterprises),
    device: byId(devices),
    reservation: byId(reservations),
  };
}

/** `Device` as the platform shows it: `Identifier` only when the flat fiscal shape asks for it. */
export function wireDevice(device: SimDevice, withIdentifier: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { Id: device.id, Name: device.name, Type: device.type };
  if (withIdentifier || device.identifier !== undefined) out.Identifier = device.identifier ?? null;
  return out;
}
