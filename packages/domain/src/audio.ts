/** WAV or MP3, told from the bytes (what the provider sent is what is stored); anything else is octets. */
export function audioContentType(audio: Uint8Array): string {
  const head = Buffer.from(audio.subarray(0, 4)).toString('latin1');
  if (head === 'RIFF') return 'audio/wav';
  if (head.startsWith('ID3') || (audio[0] === 0xff && (audio[1]! & 0xe0) === 0xe0)) return 'audio/mpeg';
  return 'application/octet-stream';
}

/** What a `Range` header asks of a body of `length` bytes (RFC 9110, 14.2). */
export type ByteRangeRequest =
  /** No header, another unit, several ranges or one that does not parse: the whole body, 200. */
  | { kind: 'whole' }
  /** One satisfiable range, `end` inclusive: 206 with `Content-Range: bytes start-end/length`. */
  | { kind: 'part'; start: number; end: number }
  /** One range that starts past the end (or asks for the last 0 bytes): 416 with `bytes *\/length`. */
  | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d{0,15})-(\d{0,15})$/;

/**
 * A single range `bytes=a-b`, `bytes=a-` or `bytes=-n`; several ranges are answered whole, which
 * RFC 9110 allows (a server may ignore Range), so no multipart body is ever built.
 */
export function byteRange(header: string | undefined, length: number): ByteRangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = SINGLE_RANGE.exec(header.trim());
  if (match === null) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || length === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, length - suffix), end: length - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= length) return { kind: 'unsatisfiable' };
  const end = last === '' ? length - 1 : Number(last);
  return { kind: 'part', start, end: Math.min(end, length - 1) };
}
