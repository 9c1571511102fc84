export * from './transcript-words';
export * from './spoken-digits';
export * from './redaction';
export * from './classification-rules';
export * from './phrase-matching';
export * from './classify-call';
