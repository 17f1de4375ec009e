import type { ConnectorApi, RequestPriority } from '../../connector/api.js';
import { addKeyCutterRequest, type KeyCutterOrder } from '../../connector/enterprise.js';
import { AgentError } from '../../errors.js';
import { errorFields, type Logger } from '../../log.js';
import { engineMessages } from '../rules/index.js';

/**
 * The commands the agent creates itself, the intake's last source: staff's Cut keys (the page's
 * form, a script with the action token, the staff socket). The order is checked against this
 * agent's encoders, created on the platform (`commands/addKeyCutter`, with the enterprise
 * `enterpriseForWrite` picks), and then taken in at once — read by id and handed to the sink like
 * any discovered command — rather than when discovery would next see it. The new command's id is
 * the answer as soon as the platform gave it; when the read fails, discovery finds the command
 * later, as it finds any other.
 */

export interface CreatedCommandsOptions {
  connector: Pick<ConnectorApi, 'addKeyCutter'>;
  /** `platform.enterpriseIds` of the configuration. */
  enterpriseIds?: readonly string[] | undefined;
  /** The configured key encoders (`KeyCutter` devices): the only devices an order may name. */
  keyCutterIds: readonly string[];
  /** Reads commands by id and hands them to the sink (`Intake.fetchByIds`). */
  intake: { fetchByIds(ids: readonly string[], via: string, priority: RequestPriority): Promise<void> };
  log: Logger;
}

export class CreatedCommands {
  constructor(private readonly options: CreatedCommandsOptions) {}

  /**
   * Creates the key-cutter command of `order` and resolves with its id. Rejects with
   * COMMAND_INVALID (nothing created) for a device that is not one of this agent's encoders or an
   * enterprise it does not serve, and with the connector's error when the platform refuses.
   */
  async cutKeys(order: KeyCutterOrder): Promise<string> {
    const { connector, enterpriseIds, keyCutterIds, intake, log } = this.options;
    if (!keyCutterIds.includes(order.deviceId)) {
      throw new AgentError('COMMAND_INVALID', 'That device is not a key encoder of this agent', {
        notes: engineMessages.notKeyCutter(),
      });
    }
    const id = await connector.addKeyCutter(addKeyCutterRequest(order, enterpriseIds ?? []));
    intake.fetchByIds([id], 'created', 'normal').catch((error: unknown) => {
      log.warn('the new key command will be picked up by discovery instead', {
        commandId: id,
        ...errorFields(error),
      });
    });
    return id;
  }
}
