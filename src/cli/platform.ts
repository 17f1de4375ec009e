import type { Config, Secrets } from '../config.js';
import { type ConnectorClient, createConnectorClient } from '../connector/client.js';
import type { Logger } from '../log.js';
import { clientName } from '../version.js';

/**
 * A Connector API client for one-shot commands (check-config, cut-keys). It keeps a small share
 * of the token's budget (a quarter) so that a running agent on the same token is not starved.
 */
export function oneShotClient(config: Config, secrets: Secrets, log: Logger): ConnectorClient {
  const { requests, windowSeconds } = config.platform.rateLimit;
  return createConnectorClient({
    baseUrl: config.platform.url,
    clientToken: secrets.clientToken,
    accessToken: secrets.accessToken,
    client: config.platform.client ?? clientName(),
    log,
    rateLimit: { requests: Math.max(1, Math.floor(requests / 4)), windowSeconds },
    requestTimeoutMs: config.platform.requestTimeoutMs,
    retries: 2,
  });
}
