/**
 * A PCM WAV file (16-bit, 8 kHz as the provider records calls) for tests: quiet noise shaped by
 * `seed`, so two files of one length are two different recordings to the speech engine simulator.
 */
export function testWav(options: { seconds: number; channels?: 1 | 2; seed?: number }): Buffer {
  const channels = options.channels ?? 1;
  const sampleRate = 8000;
  const samples = Math.round(options.seconds * sampleRate);
  const dataBytes = samples * channels * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(channels, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * channels * 2, 28);
  wav.writeUInt16LE(channels * 2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  let state = (options.seed ?? 1) >>> 0 || 1;
  for (let at = 44; at < wav.length; at += 2) {
    // xorshift: cheap, repeatable noise at about -40 dB
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    wav.writeInt16LE(((state >>> 0) % 600) - 300, at);
  }
  return wav;
}
