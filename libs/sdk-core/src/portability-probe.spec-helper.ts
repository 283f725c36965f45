// Used by portability.spec.ts only: each use below must fail to type-check under the package's tsconfig.
import { readFileSync } from 'node:fs';

export const probe = [Buffer.from('x'), readFileSync, process.env];
