import type { z } from 'zod';
import type { Message } from '../messages/message.js';
import type { DeviceAction, JobResult } from './types.js';

/**
 * Types one device action with its own parameter type and hands it over as the contract's
 * `DeviceAction` (parameters `unknown` until its schema has parsed them): the only way `run` is
 * ever called is with what `params` produced.
 */
export function defineAction<S extends z.ZodType>(action: {
  name: string;
  label: Message;
  description: Message;
  fields: DeviceAction['fields'];
  confirm?: Message;
  params: S;
  run(params: z.output<S>, signal: AbortSignal): Promise<JobResult>;
}): DeviceAction {
  return {
    ...action,
    params: action.params as z.ZodType<unknown>,
    run: (params, signal) => action.run(params as z.output<S>, signal),
  };
}
