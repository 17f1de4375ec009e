import { z } from 'zod';
import { actionInfo, runDeviceAction } from '../../../src/agent/status-source.js';
import type { EngineDevice } from '../../../src/commands/index.js';
import { defineAction } from '../../../src/drivers-api/actions.js';
import type { DeviceAction, Driver, JobResult } from '../../../src/drivers-api/types.js';
import { AgentError } from '../../../src/errors.js';
import { textMessage } from '../../../src/messages/message.js';
import { FakeSource, FISCAL_ID } from './fake-source.js';

/** The status server's device-action tests: a fake agent with a fiscal printer and its actions. */

/** What the fake actions were asked to do, in order (a test empties it after itself). */
export const calls: Array<{ action: string; params: unknown }> = [];

function actions(): DeviceAction[] {
  return [
    defineAction({
      name: 'x-report',
      label: textMessage('Print X report'),
      description: textMessage('The day’s financial report.'),
      fields: [],
      params: z.object({}).loose(),
      run: async (params) => {
        calls.push({ action: 'x-report', params });
        return { notes: textMessage('X report printed on RT 99MEX012345'), details: { report: 'x' } };
      },
    }),
    defineAction({
      name: 'void',
      label: textMessage('Void a receipt'),
      description: textMessage('Voids a receipt.'),
      fields: [
        { name: 'receipt', label: textMessage('Receipt number'), required: true, placeholder: '0012-0034' },
      ],
      confirm: textMessage('Void this receipt.'),
      params: z.object({ receipt: z.string().regex(/^\d{4}-\d{4}$/, 'a receipt number like 0012-0034') }),
      run: async (params): Promise<JobResult> => {
        calls.push({ action: 'void', params });
        if (params.receipt === '0000-0009')
          throw new AgentError('FISCAL_REJECTED', 'refused', { notes: textMessage('The printer says no.') });
        return {
          notes: textMessage(`Void 0013-0002 on RT 99MEX012345 (void of ${params.receipt})`),
          details: {
            receiptNumber: '0013-0002',
            zNumber: 13,
            free: 'a sentence with spaces, commas and more than forty characters',
          },
        };
      },
    }),
  ];
}

/** A fake agent whose fiscal printer (`name`) has the device actions `make()` builds. */
export class ActionSource extends FakeSource {
  private readonly devices: EngineDevice[];

  constructor(make: () => DeviceAction[] = actions, name = 'Fiscal printer') {
    super();
    this.devices = [
      {
        id: FISCAL_ID,
        name,
        type: 'FiscalMachine',
        driverKind: 'epson-fpmate',
        driver: { actions: make } as unknown as Driver,
      },
    ];
    const fiscal = this.snap.devices.find((d) => d.id === FISCAL_ID);
    if (fiscal) {
      fiscal.name = name;
      fiscal.actions = make().map(actionInfo);
    }
  }

  runDeviceAction(deviceId: string, action: string, params: Record<string, string>, signal: AbortSignal) {
    return runDeviceAction(this.devices, deviceId, action, params, signal);
  }
}
