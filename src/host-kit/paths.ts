import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository root, whatever the working directory. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const projectPath = (...parts: string[]) => join(PROJECT_ROOT, ...parts);
