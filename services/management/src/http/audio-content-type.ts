/** WAV or MP3 from the file's first bytes, as a player (or the provider's <Play>) needs to know; anything else is sent as it is. */
export function audioContentType(audio: Buffer): string {
  if (audio.subarray(0, 4).toString('latin1') === 'RIFF') return 'audio/wav';
  if (audio.subarray(0, 3).toString('latin1') === 'ID3' || (audio[0] === 0xff && (audio[1]! & 0xe0) === 0xe0))
    return 'audio/mpeg';
  return 'application/octet-stream';
}
