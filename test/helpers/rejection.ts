import { AgentError, isAgentError } from '../../src/errors.js';

/**
 * The AgentError `run` throws. Any other throw propagates unchanged; returning normally fails the
 * test, so a caller's assertions on the error always run against a real refusal.
 */
export function thrownBy(run: () => unknown): AgentError {
  try {
    run();
  } catch (e) {
    if (e instanceof AgentError) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

/** The AgentError `promise` rejects with; resolving, or rejecting with anything else, fails the test. */
export async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isAgentError(error)) throw new Error(`expected an AgentError, got ${String(error)}`);
  return error;
}
