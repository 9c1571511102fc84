/**
 * ioredis returns stream replies untyped; these turn them into entries and refuse a shape they do not
 * know, so a protocol surprise fails loudly instead of acking the wrong ids.
 */

/** One stream entry; `fields` is null for an entry still pending but already trimmed from the stream. */
export interface StreamEntry {
  id: string;
  fields: string[] | null;
}

/** XREADGROUP reply → entries by stream key (null reply: nothing arrived within BLOCK). */
export function parseReadGroupReply(reply: unknown): Map<string, StreamEntry[]> {
  const byKey = new Map<string, StreamEntry[]>();
  if (reply === null) return byKey;
  if (!Array.isArray(reply)) throw unexpected('XREADGROUP', reply);
  for (const stream of reply) {
    if (!Array.isArray(stream) || typeof stream[0] !== 'string') throw unexpected('XREADGROUP', reply);
    byKey.set(stream[0], parseEntries('XREADGROUP', stream[1]));
  }
  return byKey;
}

/** XAUTOCLAIM reply → the cursor to continue from ('0-0' when the scan is complete) and the claimed entries. */
export function parseAutoClaimReply(reply: unknown): { cursor: string; entries: StreamEntry[] } {
  if (!Array.isArray(reply) || typeof reply[0] !== 'string') throw unexpected('XAUTOCLAIM', reply);
  return { cursor: reply[0], entries: parseEntries('XAUTOCLAIM', reply[1]) };
}

function parseEntries(command: string, raw: unknown): StreamEntry[] {
  if (!Array.isArray(raw)) throw unexpected(command, raw);
  return raw.map((entry: unknown) => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') throw unexpected(command, entry);
    const fields: unknown = entry[1];
    if (fields === null) return { id: entry[0], fields: null };
    if (!Array.isArray(fields) || !fields.every((field) => typeof field === 'string')) {
      throw unexpected(command, entry);
    }
    return { id: entry[0], fields: fields as string[] };
  });
}

function unexpected(command: string, value: unknown): Error {
  return new Error(`unexpected ${command} reply: ${JSON.stringify(value)?.slice(0, 200)}`);
}
