import type { ConnectorApi } from '../connector/api.js';
import type { PlatformReader } from '../drivers-api/types.js';

/** The read access drivers get: a bill's order items and payments, every page. */
export function platformReader(connector: ConnectorApi): PlatformReader {
  return {
    async orderItems(billId, signal) {
      const out = [];
      for await (const page of connector.orderItems(
        { BillIds: [billId] },
        { pageSize: 1000, ...(signal ? { signal } : {}) },
      )) {
        out.push(...page);
      }
      return out;
    },
    async payments(billId, signal) {
      const out = [];
      for await (const page of connector.payments(
        { BillIds: [billId] },
        { pageSize: 1000, ...(signal ? { signal } : {}) },
      )) {
        out.push(...page);
      }
      return out;
    },
  };
}
