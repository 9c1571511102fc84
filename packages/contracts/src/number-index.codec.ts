import { fail } from './projection-error';

export type TrackingNumberKind = 'pool' | 'static';

/** An entry of the global tracking-number → partner index. */
export interface NumberIndexEntry {
  advId: string;
  kind: TrackingNumberKind;
}

// `<kind>:<advId>`: the kind first, so an advId that contains ':' still splits unambiguously.
export function encodeNumberIndexEntry(entry: NumberIndexEntry): string {
  return `${entry.kind}:${entry.advId}`;
}

export function decodeNumberIndexEntry(raw: string): NumberIndexEntry {
  const colon = raw.indexOf(':');
  const kind = raw.slice(0, colon);
  const advId = raw.slice(colon + 1);
  if (colon < 0 || (kind !== 'pool' && kind !== 'static') || advId === '') {
    fail('number index entry', `not <pool|static>:<advId>: ${JSON.stringify(raw)}`);
  }
  return { kind, advId };
}
