import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Reads `<package>/lua/<name>.lua`, found by walking up so it works from src/ (jest) and dist/. */
export function readLuaScript(name: string): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'lua', `${name}.lua`))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`lua/${name}.lua not found above ${__dirname}`);
    dir = parent;
  }
  return readFileSync(join(dir, 'lua', `${name}.lua`), 'utf8');
}
