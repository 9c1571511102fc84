import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineLuaCommand, readLuaScript } from './lua-script';
import type { RedisConnection } from './redis-client';

describe('lua script loader', () => {
  const root = mkdtempSync(join(tmpdir(), 'tl-lua-'));
  mkdirSync(join(root, 'lua'));
  mkdirSync(join(root, 'dist', 'pools'), { recursive: true });
  writeFileSync(join(root, 'lua', 'echo.lua'), 'return KEYS[1]\n');

  it('finds lua/<file>.lua in the nearest package folder above the caller', () => {
    expect(readLuaScript(join(root, 'dist', 'pools'), 'echo')).toBe('return KEYS[1]\n');
  });

  it('names the file it could not find', () => {
    expect(() => readLuaScript(join(root, 'dist'), 'missing')).toThrow(/lua\/missing\.lua not found/);
  });

  it('defines the command once per client, with its number of keys and the file as body', () => {
    const defined: Array<[string, { numberOfKeys: number; lua: string }]> = [];
    const client = {
      defineCommand(name: string, options: { numberOfKeys: number; lua: string }) {
        defined.push([name, options]);
        (client as Record<string, unknown>)[name] = () => Promise.resolve('x');
      },
    };
    const command = { name: 'echoKey', file: 'echo', numberOfKeys: 1 };
    defineLuaCommand(client as unknown as RedisConnection, join(root, 'dist'), command);
    defineLuaCommand(client as unknown as RedisConnection, join(root, 'dist'), command);
    expect(defined).toEqual([['echoKey', { numberOfKeys: 1, lua: 'return KEYS[1]\n' }]]);
  });
});
