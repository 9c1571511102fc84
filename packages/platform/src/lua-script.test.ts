import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'ioredis';
import { defineLuaCommand, readLuaScript } from './lua-script';
import type { RedisConnection } from './redis-client';

const LUA = 'return KEYS[1]\n';
const SHA = createHash('sha1').update(LUA).digest('hex');

interface EchoScript {
  echoKey(...keysAndArgs: Array<string | number>): Promise<unknown>;
}

/** A client whose sendCommand records each command and answers with the next of `answers`. */
function recordingClient(answers: Array<(command: Command) => Promise<unknown>>) {
  const sent: Array<{ name: string; args: unknown[]; writable: string }> = [];
  const client = {
    sendCommand(command: Command) {
      sent.push({ name: command.name, args: [...command.args], writable: String(command.toWritable({})) });
      return answers.shift()!(command);
    },
  };
  return { client: client as unknown as RedisConnection, sent };
}

describe('lua script loader', () => {
  const root = mkdtempSync(join(tmpdir(), 'tl-lua-'));
  mkdirSync(join(root, 'lua'));
  mkdirSync(join(root, 'dist', 'pools'), { recursive: true });
  writeFileSync(join(root, 'lua', 'echo.lua'), LUA);
  const command = { name: 'echoKey', file: 'echo', numberOfKeys: 1 };

  it('finds lua/<file>.lua in the nearest package folder above the caller', () => {
    expect(readLuaScript(join(root, 'dist', 'pools'), 'echo')).toBe(LUA);
  });

  it('names the file it could not find', () => {
    expect(() => readLuaScript(join(root, 'dist'), 'missing')).toThrow(/lua\/missing\.lua not found/);
  });

  it('defines the method once per client', () => {
    const { client } = recordingClient([]);
    const first = defineLuaCommand<EchoScript>(client, join(root, 'dist'), command).echoKey;
    const second = defineLuaCommand<EchoScript>(client, join(root, 'dist'), command).echoKey;
    expect(typeof first).toBe('function');
    expect(second).toBe(first);
  });

  it('sends the script as EVAL first, then EVALSHA, with the keys and arguments as RESP strings', async () => {
    const { client, sent } = recordingClient([() => Promise.resolve('k'), () => Promise.resolve('k')]);
    const redis = defineLuaCommand<EchoScript>(client, join(root, 'dist'), command);
    await expect(redis.echoKey('k', 'v')).resolves.toBe('k');
    await expect(redis.echoKey('k', 'ÆØ', 7)).resolves.toBe('k');
    expect(sent).toEqual([
      {
        name: 'eval',
        args: [LUA, '1', 'k', 'v'],
        writable: `*5\r\n$4\r\neval\r\n$15\r\n${LUA}\r\n$1\r\n1\r\n$1\r\nk\r\n$1\r\nv\r\n`,
      },
      {
        name: 'evalsha',
        args: [SHA, '1', 'k', 'ÆØ', '7'],
        // Lengths in bytes: the two letters are four in UTF-8.
        writable: `*6\r\n$7\r\nevalsha\r\n$40\r\n${SHA}\r\n$1\r\n1\r\n$1\r\nk\r\n$4\r\nÆØ\r\n$1\r\n7\r\n`,
      },
    ]);
  });

  it('sends the script itself as EVAL again once the server answers NOSCRIPT', async () => {
    const { client, sent } = recordingClient([
      () => Promise.resolve('k'),
      () => Promise.reject(new Error('NOSCRIPT No matching script. Please use EVAL.')),
      () => Promise.resolve('k'),
    ]);
    const redis = defineLuaCommand<EchoScript>(client, join(root, 'dist'), command);
    await redis.echoKey('k', 'v');
    await expect(redis.echoKey('k', 'w')).resolves.toBe('k');
    expect(sent.map(({ name, args }) => [name, args])).toEqual([
      ['eval', [LUA, '1', 'k', 'v']],
      ['evalsha', [SHA, '1', 'k', 'w']],
      ['eval', [LUA, '1', 'k', 'w']],
    ]);
  });

  it('passes every other error on without a second attempt', async () => {
    const { client, sent } = recordingClient([
      () => Promise.reject(new Error('Command timed out')),
      () => Promise.reject(new Error('Command timed out')),
    ]);
    const redis = defineLuaCommand<EchoScript>(client, join(root, 'dist'), command);
    await expect(redis.echoKey('k')).rejects.toThrow('Command timed out');
    await expect(redis.echoKey('k')).rejects.toThrow('Command timed out');
    expect(sent.map(({ name }) => name)).toEqual(['eval', 'evalsha']);
  });

  it('names the keys of the call for Cluster routing', async () => {
    const { client } = recordingClient([
      (sentCommand) => Promise.resolve(sentCommand.getKeys()),
      (sentCommand) => Promise.resolve(sentCommand.getKeys()),
    ]);
    const redis = defineLuaCommand<EchoScript>(client, join(root, 'dist'), command);
    await expect(redis.echoKey('{p}:a', 'v')).resolves.toEqual(['{p}:a']);
    await expect(redis.echoKey('{p}:b', 'v')).resolves.toEqual(['{p}:b']);
  });
});
