/**
 * Recordings as every engine reads them (docs/call-intelligence.md, The engine): each channel of a
 * WAV recording apart (the provider records the caller on the first channel and the answerer on the
 * second, so the transcript says who said what), as 16 kHz 16-bit mono PCM — whisper's own rate, which
 * whisper.cpp's server requires unless it was started with `--convert`. The provider records calls at
 * 8 kHz, as 16-bit PCM or µ-law. Anything else (MP3) goes to the engine as it is.
 */
export function engineWavChannels(audio: Buffer): Buffer[] | undefined {
  const format = readWavFormat(audio);
  if (format === undefined || format.channels < 1 || format.channels > 2) return undefined;
  const bytesPerSample = format.encoding === 'pcm16' ? 2 : 1;
  const frames = Math.floor(format.dataLength / (bytesPerSample * format.channels));
  const sample = (frame: number, channel: number): number => {
    const at = format.dataOffset + (frame * format.channels + channel) * bytesPerSample;
    return format.encoding === 'pcm16' ? audio.readInt16LE(at) : muLawToLinear(audio[at]!);
  };
  return Array.from({ length: format.channels }, (_, channel) =>
    resampled(format.sampleRate, frames, (frame) => sample(frame, channel)),
  );
}

const ENGINE_RATE = 16_000;

/** Linear interpolation to 16 kHz: enough for speech, which whisper low-passes at 8 kHz anyway. */
function resampled(rate: number, frames: number, sample: (frame: number) => number): Buffer {
  const out = Math.floor((frames * ENGINE_RATE) / rate);
  const wav = Buffer.alloc(44 + out * 2);
  writeMonoHeader(wav, ENGINE_RATE, out * 2);
  for (let i = 0; i < out; i++) {
    const position = (i * rate) / ENGINE_RATE;
    const before = Math.floor(position);
    const after = Math.min(before + 1, frames - 1);
    const fraction = position - before;
    const value = sample(before) * (1 - fraction) + sample(after) * fraction;
    wav.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(value))), 44 + i * 2);
  }
  return wav;
}

/** G.711 µ-law to 16-bit linear. */
function muLawToLinear(byte: number): number {
  const value = ~byte & 0xff;
  const sign = value & 0x80;
  const exponent = (value >> 4) & 0x07;
  const mantissa = value & 0x0f;
  const magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84;
  return sign === 0 ? magnitude : -magnitude;
}

interface WavFormat {
  encoding: 'pcm16' | 'mulaw';
  channels: number;
  sampleRate: number;
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
      const code = audio.readUInt16LE(at + 8);
      const bits = audio.readUInt16LE(at + 22);
      const encoding = code === 1 && bits === 16 ? 'pcm16' : code === 7 && bits === 8 ? 'mulaw' : undefined;
      if (encoding === undefined) return undefined;
      format = { encoding, channels: audio.readUInt16LE(at + 10), sampleRate: audio.readUInt32LE(at + 12) };
    }
    if (id === 'data' && format !== undefined && format.sampleRate > 0)
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
