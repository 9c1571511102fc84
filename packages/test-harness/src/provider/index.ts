export { providerSign, providerRequest, formEncode, type ProviderResponse } from './provider-http';
export { RecordingServer, testWav, type RecordingDownload } from './recording-server';
export { readTwiml, type TwimlVerb } from './twiml-reader';
export {
  ProviderCallSimulator,
  type CallScript,
  type CallTranscript,
  type ProviderAccount,
  type ProviderExchange,
} from './call-simulator';
