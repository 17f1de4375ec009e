import type { MatrixFamily } from '../family.js';
import { customMatrix } from './custom.js';
import { epsonMatrix } from './epson.js';
import { rchMatrix } from './rch.js';

/** Every RT family's matrix adapter, by its registry kind (`drivers/index.ts`, group `rt-printer`). */
export const matrixFamilies: ReadonlyMap<string, MatrixFamily> = new Map(
  [customMatrix, epsonMatrix, rchMatrix].map((f) => [f.kind, f]),
);
