/** What `readAtMost` read: at most `limit` bytes, and whether that was the whole body. */
export interface BoundedBody {
  bytes: Buffer;
  /** False when the body went past the limit: the rest was never read and the stream was cancelled. */
  complete: boolean;
}

/**
 * Reads a fetch response's body while it streams, keeping at most `limit` bytes: past the limit the
 * stream is cancelled (the connection is dropped) instead of read on. Content-Length is not trusted
 * for this — it may be absent (chunked) or lie — so memory is bounded by `limit` plus one chunk
 * whatever the other side sends. Every outbound download goes through here.
 */
export async function readAtMost(response: Response, limit: number): Promise<BoundedBody> {
  if (response.body === null) return { bytes: Buffer.alloc(0), complete: true };
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks, size), complete: true };
    const room = limit - size;
    if (value.byteLength > room) {
      if (room > 0) chunks.push(Buffer.from(value.buffer, value.byteOffset, room));
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks, limit), complete: false };
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    size += value.byteLength;
  }
}
