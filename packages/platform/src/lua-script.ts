import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Command } from 'ioredis';
import type { RedisConnection } from './redis-client';

/** One Lua script of a package, run as a method of the client (docs/architecture.md). */
export interface LuaCommand {
  /** The method name the client gets, e.g. `allocateNumbers`. */
  name: string;
  /** `<package>/lua/<file>.lua`. */
  file: string;
  /** How many leading arguments are keys: every key a script touches is passed in KEYS (Cluster routes on them). */
  numberOfKeys: number;
}

/**
 * Reads `<package>/lua/<file>.lua`, where the package is the nearest folder above `fromDir` (the
 * caller's `__dirname`) that holds it: the same call works from `src/` under jest and from `dist/`
 * when built, and the package folder (with its `lua/`) is what the images copy.
 */
export function readLuaScript(fromDir: string, file: string): string {
  let dir = fromDir;
  while (!existsSync(join(dir, 'lua', `${file}.lua`))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`lua/${file}.lua not found above ${fromDir}`);
    dir = parent;
  }
  return readFileSync(join(dir, 'lua', `${file}.lua`), 'utf8');
}

/**
 * Gives the client a method `command.name(...keysAndArgs)` that runs the script: EVAL on the
 * client's first call, EVALSHA after that, and once more as EVAL when the server answers NOSCRIPT
 * (a restart or SCRIPT FLUSH emptied its script cache, or a Cluster node has not seen the script
 * yet; EVAL caches it again). Returns the client typed with the method. Idempotent per client, so
 * every store built on a shared client may call it.
 */
export function defineLuaCommand<Commands extends object>(
  redis: RedisConnection,
  fromDir: string,
  command: LuaCommand,
): RedisConnection & Commands {
  const client = redis as unknown as Record<string, unknown>;
  if (typeof client[command.name] !== 'function') {
    client[command.name] = scriptMethod(readLuaScript(fromDir, command.file), command.numberOfKeys);
  }
  return redis as RedisConnection & Commands;
}

type ScriptArgument = string | number | Buffer;

function scriptMethod(lua: string, numberOfKeys: number) {
  const sha = createHash('sha1').update(lua).digest('hex');
  const keyCount = String(numberOfKeys);
  // A client's first call sends the script itself: a server just started has no script cached, and
  // EVALSHA would cost it a NOSCRIPT answer and a second round trip before its first allocation.
  const sentTo = new WeakSet<object>();
  return function runScript(this: RedisConnection, ...keysAndArgs: ScriptArgument[]): Promise<unknown> {
    const args = [sha, keyCount, ...keysAndArgs];
    if (!sentTo.has(this)) {
      sentTo.add(this);
      args[0] = lua;
      return this.sendCommand(new ScriptCall('eval', args)) as Promise<unknown>;
    }
    return (this.sendCommand(new ScriptCall('evalsha', args)) as Promise<unknown>).catch((error: unknown) => {
      if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw error;
      args[0] = lua;
      return this.sendCommand(new ScriptCall('eval', args));
    });
  };
}

/**
 * EVALSHA or EVAL through the client's own command path, so its reconnection, command timeout,
 * offline queue and Cluster routing (on the keys the command names) apply unchanged. Its arguments
 * are set after construction: ioredis's constructor copies them with `Array.prototype.flat`, which V8
 * runs through its generic path at about 1,300 instructions an argument, a visible share of the
 * replacement service's request (docs/benchmarks.md, Instructions per request); they are flat already.
 */
class ScriptCall extends Command {
  constructor(name: 'evalsha' | 'eval', args: ScriptArgument[]) {
    super(name, [], { replyEncoding: 'utf8' });
    this.args = args;
    // What the constructor would have done to them: numbers to strings, Buffers into buffer mode.
    this.stringifyArguments();
  }
}
