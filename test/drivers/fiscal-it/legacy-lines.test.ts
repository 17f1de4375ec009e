import { describe, expect, it } from 'vitest';
import { classifyLine, fromLegacyLine } from '../../../drivers/fiscal-it/lines.js';
import { normalizeCommand } from '../../../src/connector/model.js';

const options = {
  departments: { 22: 1, 10: 2, 4: 3, 5: 4, N1: 10 },
  taxCodeRates: {},
  taxCodeNatures: {},
  itemNatures: {},
};

describe('legacy bill lines', () => {
  it('find their department from net and tax when the tax code is unknown to the printer map', () => {
    const item = normalizeCommand({
      Id: 'c1',
      State: 'Pending',
      CreatedUtc: '2026-11-21T10:00:00Z',
      Device: { Id: 'd1', Type: 'FiscalMachine', Name: 'RT' },
      Data: {
        Bill: {
          Id: 'b1',
          Revenue: [
            {
              Name: 'Pernottamento camera 103',
              UnitCount: 2,
              Amount: {
                Currency: 'EUR',
                NetValue: 200,
                GrossValue: 220,
                TaxValues: [{ Code: 'IT-X-R', Value: 20 }],
              },
            },
          ],
        },
        BillFiscalMachineData: { Discriminator: 'ItalianFiscalMachineData', Value: { IsRefund: false } },
      },
    });
    if (!item.ok || item.command.data.kind !== 'fiscal') throw new Error('expected a fiscal command');
    const [legacy] = item.command.data.fiscal.bill.legacyItems ?? [];
    expect(legacy).toMatchObject({ gross: 220, net: 200, tax: 20 });
    const line = fromLegacyLine(legacy as NonNullable<typeof legacy>);
    expect(line && classifyLine(line, options)).toEqual({ department: 2, rate: 10 });
  });
});
