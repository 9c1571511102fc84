import { audioContentType, byteRange } from './audio';

describe('audioContentType', () => {
  it('tells WAV from MP3 by the first bytes', () => {
    expect(audioContentType(Buffer.from('RIFF\0\0\0\0WAVE'))).toBe('audio/wav');
    expect(audioContentType(Buffer.from('ID3\x04'))).toBe('audio/mpeg');
    expect(audioContentType(Buffer.from([0xff, 0xfb, 0x90, 0x00]))).toBe('audio/mpeg');
    expect(audioContentType(Buffer.from('OggS'))).toBe('application/octet-stream');
    expect(audioContentType(Buffer.alloc(0))).toBe('application/octet-stream');
  });
});

describe('byteRange', () => {
  it('reads the three single-range forms, clamped to the body', () => {
    expect(byteRange('bytes=0-99', 1000)).toEqual({ kind: 'part', start: 0, end: 99 });
    expect(byteRange('bytes=900-', 1000)).toEqual({ kind: 'part', start: 900, end: 999 });
    expect(byteRange('bytes=-100', 1000)).toEqual({ kind: 'part', start: 900, end: 999 });
    expect(byteRange('bytes=-5000', 1000)).toEqual({ kind: 'part', start: 0, end: 999 });
    expect(byteRange('bytes=990-2000', 1000)).toEqual({ kind: 'part', start: 990, end: 999 });
  });

  it('answers whole without a header, for several ranges, another unit or junk', () => {
    for (const header of [undefined, 'bytes=0-1,5-9', 'items=0-1', 'bytes=x-y', 'bytes=-', 'bytes=9-3'])
      expect(byteRange(header, 1000)).toEqual({ kind: 'whole' });
  });

  it('refuses a range past the end and an empty suffix', () => {
    expect(byteRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(byteRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(byteRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});
