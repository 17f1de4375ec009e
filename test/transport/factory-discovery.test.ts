import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { listCandidateDevices } from '../../src/transport/discovery.js';
import { createTransportFactory, describeSpec } from '../../src/transport/factory.js';
import { FakeCp2110 } from '../../src/transport/testing/fake-hid.js';
import { MemoryHub } from '../../src/transport/testing/memory.js';

describe('createTransportFactory', () => {
  it('creates without loading anything; loads the HID code on the first open only', async () => {
    const fake = new FakeCp2110();
    let loads = 0;
    const io = createTransportFactory({
      log: silentLogger,
      loadHid: async () => {
        loads++;
        return FakeCp2110.module(fake);
      },
    });
    const t = io.create({ type: 'hid', vendorId: 0x10c4, productId: 0xea80, baudRate: 19200 });
    const got: Buffer[] = [];
    t.onData((c) => got.push(c));
    expect([t.kind, t.description, t.isOpen, loads]).toEqual(['hid', 'hid 0x10c4:0xea80', false, 0]);
    await expect(t.write(Buffer.of(1))).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE' });
    await t.open();
    await t.close();
    await t.open();
    expect(loads).toBe(1);
    expect(fake.uartConfig?.baudRate).toBe(19200);
    fake.receive(Buffer.from('ok'));
    expect(Buffer.concat(got).toString()).toBe('ok');
  });

  it('serves memory endpoints from the hub, and refuses them without one', async () => {
    const hub = new MemoryHub();
    hub.listen('enc', () => undefined);
    await createTransportFactory({ log: silentLogger, memory: hub })
      .create({ type: 'memory', name: 'enc' })
      .open();
    const orphan = createTransportFactory({ log: silentLogger }).create({ type: 'memory', name: 'enc' });
    await expect(orphan.open()).rejects.toMatchObject({ code: 'DEVICE_UNAVAILABLE', retryable: false });
  });

  it('describes every spec without secrets or module loads', () => {
    expect(describeSpec({ type: 'serial', path: '/dev/serial/by-id/usb-X', baudRate: 9600 })).toBe(
      'serial /dev/serial/by-id/usb-X',
    );
    expect(describeSpec({ type: 'tcp', host: 'lock.local', port: 8090 })).toBe('tcp lock.local:8090');
    expect(
      describeSpec({
        type: 'hid',
        vendorId: 0x10c4,
        productId: 0xea80,
        serialNumber: 'S1',
        path: '/dev/hidraw0',
        baudRate: 1,
      }),
    ).toBe('hid 0x10c4:0xea80 serial S1 at /dev/hidraw0');
    expect(describeSpec({ type: 'memory', name: 'enc' })).toBe('memory enc');
  });
});

describe('listCandidateDevices', () => {
  it('prefers by-id paths, flags encoders, CP2110 bridges and adapters, and suggests options', async () => {
    const result = await listCandidateDevices({
      byId: async () => [
        { link: '/dev/serial/by-id/usb-FTDI_FT232R_A1-if00-port0', target: '/dev/ttyUSB0' },
        { link: '/dev/serial/by-id/usb-SALTO_Encoder_42-if00', target: '/dev/ttyACM0' },
      ],
      serialPorts: async () => [
        {
          path: '/dev/ttyUSB0',
          manufacturer: 'FTDI',
          vendorId: '0403',
          productId: '6001',
          serialNumber: 'A1',
        },
        { path: '/dev/ttyS0' },
      ],
      hidDevices: async () => [
        {
          vendorId: 0x10c4,
          productId: 0xea80,
          path: '/dev/hidraw3',
          serialNumber: '0042',
          product: 'CP2110 HID USB-to-UART Bridge',
        },
        { vendorId: 0x046d, productId: 0xc31c, path: '/dev/hidraw0', product: 'USB Keyboard' },
      ],
    });
    expect(result.problems).toEqual([]);
    expect(result.devices.map((d) => [d.role, d.kind, d.path])).toEqual([
      ['encoder', 'serial', '/dev/serial/by-id/usb-SALTO_Encoder_42-if00'],
      ['cp2110-bridge', 'hid', '/dev/hidraw3'],
      ['usb-serial', 'serial', '/dev/serial/by-id/usb-FTDI_FT232R_A1-if00-port0'],
      ['unknown', 'hid', '/dev/hidraw0'],
      ['unknown', 'serial', '/dev/ttyS0'],
    ]);
    expect(result.devices[1]?.suggestedOptions).toEqual({
      transport: 'hid',
      vendorId: 0x10c4,
      productId: 0xea80,
      serialNumber: '0042',
    });
    expect(result.devices[2]).toMatchObject({
      devicePath: '/dev/ttyUSB0',
      vendorId: 0x0403,
      suggestedOptions: { transport: 'serial', path: '/dev/serial/by-id/usb-FTDI_FT232R_A1-if00-port0' },
    });
    expect(result.devices[4]?.note).toMatch(/no \/dev\/serial\/by-id link/);
  });

  it('never rejects: a failing source becomes a problem line', async () => {
    const result = await listCandidateDevices({
      byId: async () => [{ link: '/dev/serial/by-id/usb-Prolific-port0', target: '/dev/ttyUSB1' }],
      serialPorts: async () => {
        throw new Error('spawn udevadm ENOENT');
      },
      hidDevices: async () => {
        throw new Error('libusb missing');
      },
    });
    expect(result.devices.map((d) => d.path)).toEqual(['/dev/serial/by-id/usb-Prolific-port0']);
    expect(result.problems).toHaveLength(2);
    expect(result.problems.join('\n')).toMatch(/udevadm/);
  });

  it('runs against this machine without throwing', async () => {
    const result = await listCandidateDevices();
    expect(Array.isArray(result.devices)).toBe(true);
    for (const d of result.devices) expect(d.suggestedOptions.transport).toMatch(/^(serial|hid)$/);
  });
});
