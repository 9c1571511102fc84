export {
  SpeechEngineSimulator,
  wavSeconds,
  type SpeechEngineMode,
  type SimulatedSegment,
  type SimulatedSpeech,
  type TranscriptionRequest,
} from './speech-engine-simulator';
export { parseMultipartForm, type FormPart } from './multipart-form';
