import { parseMultipartForm } from './multipart-form';
import { SpeechEngineSimulator, wavSeconds } from './speech-engine-simulator';
import { testWav } from '../provider/recording-server';

function form(audio: Buffer, fields: Record<string, string> = {}): FormData {
  const body = new FormData();
  body.append('file', new Blob([audio], { type: 'audio/wav' }), 'call.wav');
  body.append('model', 'whisper-1');
  body.append('response_format', 'verbose_json');
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

describe('the speech engine simulator (whisper.cpp server answers)', () => {
  const engine = new SpeechEngineSimulator('engine-key');
  const audio = testWav(2.5, 7, 2);
  const auth = { Authorization: 'Bearer engine-key' };

  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  afterEach(() => engine.setMode('ok'));

  async function transcribe(file = audio): Promise<Response> {
    return fetch(`${engine.baseUrl}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: auth,
      body: form(file),
    });
  }

  it('answers verbose_json with what the audio says, and records the request', async () => {
    engine.say(audio, {
      language: 'no',
      segments: [{ start: 0.4, end: 2.1, text: 'Er bilen fortsatt ledig?' }],
    });
    const answer = await transcribe();
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      task: 'transcribe',
      language: 'norwegian',
      duration: 2.5,
      text: ' Er bilen fortsatt ledig?',
      segments: [expect.objectContaining({ id: 0, start: 0.4, end: 2.1, text: ' Er bilen fortsatt ledig?' })],
    });
    const request = engine.requests.at(-1)!;
    expect(request.fields).toEqual({ model: 'whisper-1', response_format: 'verbose_json' });
    expect(request.fileName).toBe('call.wav');
    expect(request.audio.equals(audio)).toBe(true);
  });

  it('hears silence in audio nobody set, and refuses a missing key', async () => {
    const other = testWav(1, 99);
    expect(await (await transcribe(other)).json()).toMatchObject({ text: '', segments: [], duration: 1 });
    const refused = await fetch(`${engine.baseUrl}/v1/audio/transcriptions`, {
      method: 'POST',
      body: form(other),
    });
    expect(refused.status).toBe(401);
  });

  it('fails as told, for as many requests as told', async () => {
    engine.setMode('down', 1);
    expect((await transcribe()).status).toBe(500);
    expect((await transcribe()).status).toBe(200);
    engine.setMode('garbage');
    expect(await (await transcribe()).text()).toMatch(/^<html>/);
    engine.setMode('empty');
    expect(await (await transcribe()).json()).toMatchObject({ text: '', segments: [] });
    engine.setMode('rate-limited');
    expect((await transcribe()).status).toBe(429);
    engine.setMode('unreachable');
    await expect(transcribe()).rejects.toThrow();
    engine.slowMs = 300;
    engine.setMode('slow');
    await expect(
      fetch(`${engine.baseUrl}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: auth,
        body: form(audio),
        signal: AbortSignal.timeout(100),
      }),
    ).rejects.toThrow();
  });

  it('reads WAV lengths and multipart forms', () => {
    expect(wavSeconds(testWav(3))).toBe(3);
    expect(wavSeconds(Buffer.from('not a wav file at all, not even close to one...'))).toBeUndefined();
    const body = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nlarge-v3\r\n--b--\r\n',
    );
    expect(parseMultipartForm('multipart/form-data; boundary=b', body)).toEqual([
      { name: 'model', data: Buffer.from('large-v3') },
    ]);
    expect(parseMultipartForm('application/json', body)).toBeUndefined();
  });
});
