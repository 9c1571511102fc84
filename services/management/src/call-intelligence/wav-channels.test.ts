import { testWav, wavSeconds } from '@trackline/test-harness';
import { engineWavChannels } from './wav-channels';

describe('recordings as the engine reads them', () => {
  it('resamples an 8 kHz mono recording to 16 kHz, keeping its length', () => {
    const [mono] = engineWavChannels(testWav(2, 3))!;
    expect(mono!.readUInt32LE(24)).toBe(16_000);
    expect(mono!.readUInt16LE(22)).toBe(1);
    expect(wavSeconds(mono!)).toBe(2);
  });

  it('splits a dual recording into its two channels, each with its own signal', () => {
    const dual = testWav(1, 5, 2);
    const channels = engineWavChannels(dual)!;
    expect(channels).toHaveLength(2);
    // Every other 16 kHz sample is an 8 kHz one: the first channel's, then the second's.
    for (const [channel, wav] of channels.entries())
      for (const frame of [10, 400, 7000])
        expect(wav.readInt16LE(44 + frame * 4)).toBe(dual.readInt16LE(44 + frame * 4 + channel * 2));
    expect(channels[0]!.equals(channels[1]!)).toBe(false);
  });

  it('decodes µ-law and leaves audio it cannot read alone', () => {
    const muLaw = Buffer.concat([testWav(0.01, 1).subarray(0, 44), Buffer.from([0xff, 0x7f, 0x00, 0x80])]);
    muLaw.writeUInt16LE(7, 20); // µ-law
    muLaw.writeUInt16LE(8, 34); // 8 bits a sample
    muLaw.writeUInt32LE(4, 40);
    const [wav] = engineWavChannels(muLaw)!;
    expect([0, 2, 4, 6].map((sample) => wav!.readInt16LE(44 + sample * 2))).toEqual([0, 0, -32124, 32124]);
    expect(engineWavChannels(Buffer.from('ID3 an mp3 file, not a wav one at all, really'))).toBeUndefined();
  });
});
