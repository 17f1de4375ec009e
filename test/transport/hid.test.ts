import { describe, expect, it } from 'vitest';
import {
  dataToReports,
  parseUartConfigReport,
  reportToData,
  uartConfigReport,
} from '../../src/transport/cp2110.js';
import { HidTransport } from '../../src/transport/hid.js';
import { transportMessages } from '../../src/transport/messages.js';
import { FakeCp2110 } from '../../src/transport/testing/fake-hid.js';
import { letPendingWorkRun } from '../helpers/pending-work.js';

const spec = { type: 'hid' as const, vendorId: 0x10c4, productId: 0xea80, baudRate: 9600 };
const tick = letPendingWorkRun;

function transportFor(fakes: FakeCp2110[], extra: Partial<typeof spec & { serialNumber: string }> = {}) {
  return new HidTransport({ ...spec, ...extra }, { load: async () => FakeCp2110.module(...fakes) });
}

describe('CP2110 report layout', () => {
  it('encodes Set UART Config: baud big-endian, parity, flow, data bits, stop bits', () => {
    expect(
      uartConfigReport({ baudRate: 115200, parity: 'none', flowControl: false, dataBits: 8, stopBits: 1 }),
    ).toEqual([0x50, 0x00, 0x01, 0xc2, 0x00, 0x00, 0x00, 0x03, 0x00]);
    expect(
      uartConfigReport({ baudRate: 9600, parity: 'even', flowControl: true, dataBits: 7, stopBits: 2 }),
    ).toEqual([0x50, 0x00, 0x00, 0x25, 0x80, 0x02, 0x01, 0x02, 0x01]);
    expect(() =>
      uartConfigReport({ baudRate: 200, parity: 'none', flowControl: false, dataBits: 8, stopBits: 1 }),
    ).toThrow(RangeError);
    expect(parseUartConfigReport([0x50, 0x00, 0x00, 0x25, 0x80, 0x01, 0x00, 0x03, 0x00])).toEqual({
      baudRate: 9600,
      parity: 'odd',
      flowControl: false,
      dataBits: 8,
      stopBits: 1,
    });
  });

  it('puts at most 63 bytes in a report whose id is the byte count', () => {
    const data = Uint8Array.from({ length: 100 }, (_, i) => i);
    const reports = dataToReports(data);
    expect(reports.map((r) => r[0])).toEqual([63, 37]);
    expect(reports.map((r) => r.length)).toEqual([64, 38]);
    expect(Buffer.from(reports.flatMap((r) => r.slice(1)))).toEqual(Buffer.from(data));
    expect(dataToReports(new Uint8Array(0))).toEqual([]);
  });

  it('reads an input report up to its count and ignores non-data reports', () => {
    const report = Buffer.alloc(64);
    report.set([3, 0x06, 0x02, 0xb3, 0x99], 0);
    expect(reportToData(report)).toEqual(Buffer.from([0x06, 0x02, 0xb3]));
    expect(reportToData(Buffer.from([0x41, 1]))).toEqual(Buffer.alloc(0));
    expect(reportToData(Buffer.from([10, 1, 2]))).toEqual(Buffer.from([1, 2]));
  });
});

describe('HidTransport with a fake CP2110', () => {
  it('enables and configures the UART on open, then frames writes into reports', async () => {
    const fake = new FakeCp2110();
    const t = transportFor([fake]);
    await t.open();
    await t.open();
    expect(fake.featureReports).toEqual([
      [0x41, 0x01],
      [0x50, 0x00, 0x00, 0x25, 0x80, 0x00, 0x00, 0x03, 0x00],
      [0x43, 0x03],
    ]);
    expect(fake.uartConfig).toEqual({
      baudRate: 9600,
      parity: 'none',
      flowControl: false,
      dataBits: 8,
      stopBits: 1,
    });
    const bytes = Buffer.from(Array.from({ length: 70 }, (_, i) => (i * 7) & 0xff));
    await t.write(bytes);
    expect(fake.outputReports.map((r) => r[0])).toEqual([63, 7]);
    expect(Buffer.concat(fake.sent)).toEqual(bytes);
    await t.close();
    await t.close();
    expect(fake.uartEnabled).toBe(false);
  });

  it('turns input reports into data, split as the bridge sends them', async () => {
    const fake = new FakeCp2110({ inputChunk: 2 });
    const t = transportFor([fake]);
    const got: Buffer[] = [];
    t.onData((c) => got.push(c));
    await t.open();
    fake.receive(Buffer.from([0x06, 0x02, 0xb3, 0x4f, 0x56]));
    expect(got).toEqual([Buffer.from([0x06, 0x02]), Buffer.from([0xb3, 0x4f]), Buffer.from([0x56])]);
  });

  it('picks the bridge by serial number and says when none is plugged in', async () => {
    const one = new FakeCp2110({ serialNumber: 'AAA', path: '/dev/hidraw1' });
    const two = new FakeCp2110({ serialNumber: 'BBB', path: '/dev/hidraw2' });
    const t = transportFor([one, two], { serialNumber: 'BBB' });
    await t.open();
    expect(two.featureReports).toHaveLength(3);
    expect(one.featureReports).toHaveLength(0);
    expect(t.description).toBe('hid 0x10c4:0xea80 serial BBB');
    await expect(transportFor([one], { serialNumber: 'CCC' }).open()).rejects.toMatchObject({
      code: 'DEVICE_UNAVAILABLE',
      notes: transportMessages.encoderUnplugged(),
    });
  });

  it('reports an unplug through onClose and opens again after a replug', async () => {
    const fake = new FakeCp2110();
    const t = transportFor([fake]);
    const closes: Array<Error & { disconnected?: boolean }> = [];
    t.onClose((e) => closes.push(e as Error));
    await t.open();
    fake.unplug();
    await tick();
    expect(closes).toHaveLength(1);
    expect(closes[0]?.disconnected).toBe(true);
    expect(t.isOpen).toBe(false);
    await expect(t.write(Buffer.of(1))).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
    await expect(t.open()).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
    fake.replug();
    await t.open();
    expect(fake.uartEnabled).toBe(true);
  });

  it('refuses a bridge that does not enable its UART', async () => {
    const stubborn = new FakeCp2110();
    const mod = FakeCp2110.module(stubborn);
    const original = mod.HID;
    mod.HID = function open(path: string) {
      const handle = new original(path);
      handle.sendFeatureReport = () => 0;
      return handle;
    } as unknown as typeof mod.HID;
    const t = new HidTransport(spec, { load: async () => mod });
    await expect(t.open()).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
    expect(t.isOpen).toBe(false);
  });

  it('loads the real node-hid only on open, and reports a bridge that is not there', async () => {
    const t = new HidTransport({ ...spec, vendorId: 0xffff, productId: 0xfffe });
    await expect(t.open()).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
  });
});
