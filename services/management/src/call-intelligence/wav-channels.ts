/**
 * A dual-channel recording split into its channels (docs/call-intelligence.md, Recording answered
 * calls): the provider records the caller on the first channel and the answerer on the second, so
 * each is transcribed apart and the transcript says who said what. Only 16-bit PCM WAV is split; any
 * other audio (MP3) goes to the engine whole.
 */
export function splitWavChannels(audio: Buffer): Buffer[] | undefined {
  const format = readWavFormat(audio);
  if (format === undefined || format.channels !== 2 || format.bitsPerSample !== 16) return undefined;
  const frames = Math.floor(format.dataLength / 4);
  const channels = [Buffer.alloc(44 + frames * 2), Buffer.alloc(44 + frames * 2)];
  for (const [channel, mono] of channels.entries()) {
    writeMonoHeader(mono, format.sampleRate, frames * 2);
    for (let frame = 0; frame < frames; frame++)
      mono.writeInt16LE(audio.readInt16LE(format.dataOffset + frame * 4 + channel * 2), 44 + frame * 2);
  }
  return channels;
}

interface WavFormat {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataOffset: number;
  dataLength: number;
}

function readWavFormat(audio: Buffer): WavFormat | undefined {
  if (
    audio.length < 44 ||
    audio.toString('ascii', 0, 4) !== 'RIFF' ||
    audio.toString('ascii', 8, 12) !== 'WAVE'
  )
    return undefined;
  let at = 12;
  let format: Omit<WavFormat, 'dataOffset' | 'dataLength'> | undefined;
  while (at + 8 <= audio.length) {
    const id = audio.toString('ascii', at, at + 4);
    const size = audio.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 24 <= audio.length) {
      if (audio.readUInt16LE(at + 8) !== 1) return undefined; // not PCM
      format = {
        channels: audio.readUInt16LE(at + 10),
        sampleRate: audio.readUInt32LE(at + 12),
        bitsPerSample: audio.readUInt16LE(at + 22),
      };
    }
    if (id === 'data' && format !== undefined)
      return { ...format, dataOffset: at + 8, dataLength: Math.min(size, audio.length - at - 8) };
    at += 8 + size + (size % 2);
  }
  return undefined;
}

function writeMonoHeader(wav: Buffer, sampleRate: number, dataBytes: number): void {
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
}
