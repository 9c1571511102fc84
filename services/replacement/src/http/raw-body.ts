import type { IncomingMessage } from 'node:http';
import { ClientAbortedError, PayloadTooLargeError } from './replacement-errors';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads the body as the exact bytes sent, because the HMAC is computed over them; a body over the
 * limit is refused as soon as its declared or received size says so.
 */
export function readRawBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = (): PayloadTooLargeError =>
      new PayloadTooLargeError(`Request body too large (max ${limit} bytes)`);
    const declared = Number(req.headers['content-length']);
    if (declared > limit) {
      // Discard the rest instead of reading it into memory; the response can still be written.
      req.resume();
      return reject(tooLarge());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanUp();
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    // The listeners stay on a request that has ended: nothing more comes from it, and removing them
    // cost each replacement request more than the rest of its body read (docs/benchmarks.md).
    const onEnd = (): void => {
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanUp();
      reject(
        req.aborted || (error as { code?: string }).code === 'ECONNRESET' ? new ClientAbortedError() : error,
      );
    };
    function cleanUp(): void {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
