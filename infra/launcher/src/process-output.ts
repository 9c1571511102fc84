import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';

export type LineWriter = (line: string) => void;

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
// Fields every service log line carries; repeating them after the prefix would only add noise.
const HIDDEN_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service', 'name', 'v']);

/**
 * Turns one line a child wrote into a readable, prefixed line. The services log pino JSON (right for
 * machines); on a terminal a person reads `management | 12:00:01 INFO listening port=8443`.
 */
export function formatChildLine(name: string, line: string, width = name.length): string {
  const prefix = `${name.padEnd(width)} |`;
  const entry = parseJsonObject(line);
  if (entry === undefined || typeof entry.msg !== 'string') return `${prefix} ${line}`;
  const level =
    typeof entry.level === 'number'
      ? (LEVEL_NAMES[entry.level] ?? String(entry.level))
      : String(entry.level ?? '');
  const time =
    typeof entry.time === 'string'
      ? entry.time.slice(11, 19)
      : typeof entry.time === 'number'
        ? new Date(entry.time).toISOString().slice(11, 19)
        : '';
  const extras = Object.entries(entry)
    .filter(([key]) => !HIDDEN_FIELDS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return [prefix, time, level.toUpperCase(), entry.msg, ...extras].filter((part) => part !== '').join(' ');
}

function parseJsonObject(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Writes each line of a child's stream through formatChildLine; resolves when the stream ends. */
export function pipeLines(stream: Readable, name: string, write: LineWriter, width?: number): Promise<void> {
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', (line) => write(formatChildLine(name, line, width)));
  return new Promise((resolve) => lines.once('close', resolve));
}
