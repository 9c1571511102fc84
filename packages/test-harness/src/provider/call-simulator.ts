import { formEncode, providerRequest, providerSign, type ProviderResponse } from './provider-http';
import { testWav, type RecordingServer } from './recording-server';
import { readTwiml, type TwimlVerb } from './twiml-reader';

export interface ProviderAccount {
  accountSid: string;
  authToken: string;
  /** Twilio signs with X-Twilio-Signature, SignalWire with X-SignalWire-Signature. */
  signatureHeader: 'X-Twilio-Signature' | 'X-SignalWire-Signature';
  /** Maps a public URL (what the provider signs) to where the test service listens. */
  targetFor(publicUrl: string): string;
}

/** One request the provider made and what it got back. */
export interface ProviderExchange {
  method: 'GET' | 'POST';
  url: string;
  fields: [string, string][];
  response: ProviderResponse;
}

export interface CallScript {
  callSid: string;
  from: string;
  /** The tracking number dialled. */
  to: string;
  /**
   * The STIR/SHAKEN verification Twilio adds to the voice webhook of a US call that carried a
   * PASSporT (`StirVerstat`, e.g. `TN-Validation-Passed-A`); absent: not sent, as outside the US.
   */
  stirVerstat?: string;
  /** The number's voice URL and status callback URL (public). */
  voiceUrl: string;
  statusCallbackUrl: string;
  /** What the answering phone does when dialled. */
  dialed?: { outcome: 'answered'; talkSeconds: number } | { outcome: 'busy' } | { outcome: 'no-answer' };
  /**
   * The recording of an answered `<Dial record="record-from-answer…">` (its recording status
   * callback is sent after the call); absent: a dual-channel test WAV of the talk time.
   */
  conversationAudio?: Buffer;
  /** The caller speaks this long after the beep (and hangs up); absent: hangs up at the beep. */
  message?: { seconds: number; audio: Buffer };
  /** DTMF the caller keys in for each `<Gather>`, in order. */
  digits?: string[];
  /** What the answering phone keys in during a `<Number url>` whisper (screening); absent: nothing. */
  screenDigits?: string;
  /** Order of the callbacks sent after the call: status first (usual) or recording first. */
  callbackOrder?: 'status-first' | 'recording-first';
  /** Send every after-call callback twice, as a provider retrying does. */
  repeatCallbacks?: boolean;
  /** Leave out the final status callback (it never arrives). */
  dropStatusCallback?: boolean;
}

export interface CallTranscript {
  exchanges: ProviderExchange[];
  /** Every TwiML document, parsed (it was well-formed, or the simulation threw). */
  documents: TwimlVerb[][];
  /** Media fetched for `<Play>`. */
  played: ProviderResponse[];
  callStatus: string;
  callDurationSeconds: number;
}

/**
 * Plays one inbound call the way Twilio Programmable Voice documents it: the voice webhook, each
 * verb of the answer in order (`<Dial action>` with DialCallStatus / DialCallDuration, `<Play>`
 * fetched, `<Record action>` with RecordingUrl, `<Gather action>` with Digits, `<Hangup/>`,
 * `<Reject/>`), then the recording status callback and the number's status callback. Every POST is
 * form-encoded and signed as the provider signs.
 */
export class ProviderCallSimulator {
  constructor(
    private readonly account: ProviderAccount,
    private readonly recordings: RecordingServer,
  ) {}

  async post(url: string, fields: [string, string][]): Promise<ProviderExchange> {
    const response = await providerRequest({
      method: 'POST',
      publicUrl: url,
      targetFor: this.account.targetFor,
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        [this.account.signatureHeader]: providerSign(this.account.authToken, url, fields),
        'User-Agent': 'TwilioProxy/1.1',
      },
      body: formEncode(fields),
    });
    return { method: 'POST', url, fields, response };
  }

  /** Plays a `<Number url>` document to the answering phone; true when it ends in a connect. */
  private async whisper(url: string, script: CallScript, transcript: CallTranscript): Promise<boolean> {
    const leg: [string, string][] = [
      ['AccountSid', this.account.accountSid],
      ['ApiVersion', '2010-04-01'],
      ['CallSid', `${script.callSid.slice(0, 2)}d${script.callSid.slice(3)}`],
      ['ParentCallSid', script.callSid],
      ['CallStatus', 'in-progress'],
      ['Direction', 'outbound-dial'],
      ['From', script.from],
      ['To', script.to],
    ];
    const fetchLeg = async (target: string, fields: [string, string][]): Promise<TwimlVerb[] | null> => {
      const exchange = await this.post(target, fields);
      transcript.exchanges.push(exchange);
      if (exchange.response.status !== 200) return null;
      const parsed = readTwiml(exchange.response.text);
      transcript.documents.push(parsed);
      return parsed;
    };
    let document = await fetchLeg(url, leg);
    while (document !== null) {
      let gathered: [string, string][] | null = null;
      let action = '';
      for (const verb of document) {
        if (verb.name === 'Hangup' || verb.name === 'Reject') return false;
        // A Gather nobody keys into times out and falls through to the next verb.
        if (verb.name === 'Gather' && script.screenDigits !== undefined) {
          gathered = [...leg, ['Digits', script.screenDigits]];
          action = verb.attributes.action!;
          break;
        }
      }
      // The whisper ran out of verbs without hanging up: the call connects.
      if (gathered === null) return true;
      document = await fetchLeg(action, gathered);
    }
    return false;
  }

  async play(script: CallScript): Promise<CallTranscript> {
    const transcript: CallTranscript = {
      exchanges: [],
      documents: [],
      played: [],
      callStatus: 'completed',
      callDurationSeconds: 1,
    };
    const base = (callStatus: string): [string, string][] => [
      ['AccountSid', this.account.accountSid],
      ['ApiVersion', '2010-04-01'],
      ['CallSid', script.callSid],
      ['CallStatus', callStatus],
      ['Called', script.to],
      ['Caller', script.from],
      ['Direction', 'inbound'],
      ['From', script.from],
      ['To', script.to],
    ];
    const digits = [...(script.digits ?? [])];
    const afterCall: { url: string; fields: [string, string][] }[] = [];
    let answered = false;
    let seconds = 1;

    const fetchDocument = async (url: string, fields: [string, string][]): Promise<TwimlVerb[] | null> => {
      const exchange = await this.post(url, fields);
      transcript.exchanges.push(exchange);
      if (exchange.response.status !== 200) {
        transcript.callStatus = 'failed';
        return null;
      }
      const document = readTwiml(exchange.response.text);
      transcript.documents.push(document);
      return document;
    };

    // Only the voice webhook carries the verification; it is signed with the other fields.
    const verification: [string, string][] =
      script.stirVerstat === undefined ? [] : [['StirVerstat', script.stirVerstat]];
    let document = await fetchDocument(script.voiceUrl, [...base('ringing'), ...verification]);
    while (document !== null) {
      let next: TwimlVerb[] | null = null;
      let ended = false;
      for (const verb of document) {
        if (verb.name === 'Reject') {
          transcript.callStatus = verb.attributes.reason === 'busy' ? 'busy' : 'no-answer';
          ended = true;
        } else if (verb.name === 'Hangup') {
          ended = true;
        } else if (verb.name === 'Say') {
          answered = true;
          seconds += 2;
        } else if (verb.name === 'Play') {
          answered = true;
          seconds += 2;
          const media = await providerRequest({
            method: 'GET',
            publicUrl: verb.text,
            targetFor: this.account.targetFor,
          });
          transcript.played.push(media);
        } else if (verb.name === 'Dial') {
          answered = true;
          const dialed = script.dialed ?? { outcome: 'no-answer' as const };
          const timeout = Number(verb.attributes.timeout ?? '30');
          const status = dialed.outcome === 'answered' ? 'completed' : dialed.outcome;
          let talk = dialed.outcome === 'answered' ? dialed.talkSeconds : 0;
          const whisperUrl = verb.children.find((child) => child.name === 'Number')?.attributes.url;
          if (dialed.outcome === 'answered' && whisperUrl !== undefined) {
            // The answering phone picked up: the whisper runs on the dialled leg before connecting.
            const accepted = await this.whisper(whisperUrl, script, transcript);
            // Declined: the leg was still answered and then hung up; the provider reports it
            // completed with the whisper's few seconds, which Trackline must not take for a lead.
            if (!accepted) talk = 4;
          }
          seconds += (dialed.outcome === 'no-answer' ? timeout : 3) + talk;
          const fields: [string, string][] = [
            ...base('in-progress'),
            ['DialCallSid', `${script.callSid.slice(0, 2)}d${script.callSid.slice(3)}`],
            ['DialCallStatus', status],
            ...(dialed.outcome === 'answered'
              ? [['DialCallDuration', String(talk)] as [string, string]]
              : []),
            ['DialBridged', String(dialed.outcome === 'answered')],
          ];
          const record = verb.attributes.record ?? 'do-not-record';
          const callback = verb.attributes.recordingStatusCallback;
          if (
            dialed.outcome === 'answered' &&
            record.startsWith('record-from-answer') &&
            callback !== undefined
          ) {
            // As Twilio reports a <Dial> recording: on the parent call, once the dial has ended.
            const channels = record.endsWith('-dual') ? 2 : 1;
            const recordingSid = `RE${script.callSid.slice(2)}`.slice(0, 34);
            const recordingUrl = this.recordings.add(
              recordingSid,
              script.conversationAudio ?? testWav(Math.max(1, talk), 7, channels),
            );
            afterCall.push({
              url: callback,
              fields: [
                ['AccountSid', this.account.accountSid],
                ['CallSid', script.callSid],
                ['RecordingSid', recordingSid],
                ['RecordingUrl', recordingUrl],
                ['RecordingStatus', 'completed'],
                ['RecordingDuration', String(talk)],
                ['RecordingChannels', String(channels)],
                ['RecordingSource', 'DialVerb'],
                ['RecordingStartTime', new Date().toUTCString()],
                ['ErrorCode', '0'],
              ],
            });
          }
          if (verb.attributes.action === undefined) continue;
          next = await fetchDocument(verb.attributes.action, fields);
          break;
        } else if (verb.name === 'Gather') {
          answered = true;
          for (const child of verb.children) if (child.name === 'Say' || child.name === 'Play') seconds += 2;
          const entered = digits.shift();
          if (entered === undefined || entered === '') continue;
          seconds += 3;
          next = await fetchDocument(verb.attributes.action!, [
            ...base('in-progress'),
            ['Digits', entered],
            ['FinishedOnKey', ''],
          ]);
          break;
        } else if (verb.name === 'Record') {
          answered = true;
          const message = script.message;
          if (message === undefined) {
            ended = true;
            break;
          }
          seconds += message.seconds;
          const recordingSid = `RE${script.callSid.slice(2)}`.slice(0, 34);
          const recordingUrl = this.recordings.add(recordingSid, message.audio);
          if (verb.attributes.recordingStatusCallback !== undefined) {
            afterCall.push({
              url: verb.attributes.recordingStatusCallback,
              fields: [
                ['AccountSid', this.account.accountSid],
                ['CallSid', script.callSid],
                ['RecordingSid', recordingSid],
                ['RecordingUrl', recordingUrl],
                ['RecordingStatus', 'completed'],
                ['RecordingDuration', String(message.seconds)],
                ['RecordingChannels', '1'],
                ['RecordingSource', 'RecordVerb'],
                ['RecordingStartTime', new Date().toUTCString()],
                ['ErrorCode', '0'],
              ],
            });
          }
          next = await fetchDocument(verb.attributes.action!, [
            ...base('completed'),
            ['RecordingUrl', recordingUrl],
            ['RecordingDuration', String(message.seconds)],
            ['RecordingSid', recordingSid],
            ['Digits', 'hangup'],
          ]);
          break;
        }
        if (ended) break;
      }
      if (ended || next === null) break;
      document = next;
    }
    if (transcript.callStatus === 'completed' && !answered) transcript.callStatus = 'no-answer';
    transcript.callDurationSeconds = transcript.callStatus === 'completed' ? seconds : 0;

    const status: { url: string; fields: [string, string][] } = {
      url: script.statusCallbackUrl,
      fields: [
        ...base(transcript.callStatus),
        ['CallDuration', String(transcript.callDurationSeconds)],
        ['Duration', String(Math.ceil(transcript.callDurationSeconds / 60))],
        ['CallbackSource', 'call-progress-events'],
        ['SequenceNumber', '0'],
        ['Timestamp', new Date().toUTCString()],
      ],
    };
    const callbacks = script.dropStatusCallback ? [...afterCall] : [status, ...afterCall];
    if (script.callbackOrder === 'recording-first') callbacks.reverse();
    const sends = script.repeatCallbacks ? [...callbacks, ...callbacks] : callbacks;
    for (const callback of sends) transcript.exchanges.push(await this.post(callback.url, callback.fields));
    return transcript;
  }
}
