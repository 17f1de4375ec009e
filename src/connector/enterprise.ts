import { AgentError } from '../errors.js';
import { connectorMessages } from './messages.js';
import type { AddKeyCutterRequest } from './wire.js';

/**
 * `EnterpriseId` of a write operation (`commands/addKeyCutter`): required with portfolio access
 * tokens, ignored with the others (platform-interfaces.md, Part B › Authentication and › Endpoints).
 * The agent cannot tell which kind of token it holds, so it sends one whenever it knows which:
 * the one chosen, else the only one configured (`platform.enterpriseIds`); with several
 * configured the caller must choose among them. Undefined: none to send (no enterprise is
 * configured and none was chosen).
 */
export function enterpriseForWrite(configured: readonly string[], chosen?: string): string | undefined {
  if (chosen !== undefined && chosen !== '') {
    if (configured.length > 0 && !configured.includes(chosen)) {
      throw new AgentError('COMMAND_INVALID', 'That enterprise is not one of this agent’s', {
        notes: connectorMessages.enterpriseNotServed(),
      });
    }
    return chosen;
  }
  if (configured.length === 1) return configured[0];
  if (configured.length > 1) {
    throw new AgentError('COMMAND_INVALID', 'Several enterprises are configured; choose one', {
      notes: connectorMessages.enterpriseMissing(),
    });
  }
  return undefined;
}

/** Staff's order for key cards: the encoder, the reservation, how many, and (with portfolio tokens) the enterprise. */
export interface KeyCutterOrder {
  deviceId: string;
  reservationId: string;
  keyCount: number;
  /** Sent as `EnterpriseId`; default: the only configured enterprise (see `enterpriseForWrite`). */
  enterpriseId?: string;
}

/**
 * The body of `commands/addKeyCutter` for `order`, with the enterprise `enterpriseForWrite`
 * picks from the configured ones: the page's form, the staff socket and the command line's
 * `cut-keys` all send this one shape.
 */
export function addKeyCutterRequest(
  order: KeyCutterOrder,
  configured: readonly string[],
): AddKeyCutterRequest {
  const enterpriseId = enterpriseForWrite(configured, order.enterpriseId);
  return {
    KeyCutterId: order.deviceId,
    ReservationId: order.reservationId,
    KeyCount: order.keyCount,
    ...(enterpriseId ? { EnterpriseId: enterpriseId } : {}),
  };
}
