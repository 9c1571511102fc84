/**
 * How sure a call record's attribution is (docs/cdrs.md, Attribution confidence):
 * - `session`: the pool number was still held by the session that was shown it;
 * - `recycled`: the binding was taken from another session because the pool was exhausted, so
 *   another visitor may have been shown the same number;
 * - `after_session`: the call came in the hold-back after the session ended;
 * - `static`: a static source's number;
 * - `none`: no binding or source (fallback number, rejected, or unknown).
 */
export type AttributionKind = 'session' | 'recycled' | 'after_session' | 'static' | 'none';

export const ATTRIBUTION_KINDS: readonly AttributionKind[] = [
  'session',
  'recycled',
  'after_session',
  'static',
  'none',
];

/** What routing knew when the call came: the dialled number's kind and what held it. */
export type AttributedCall =
  | { number: 'pool'; binding: { recycled: boolean; sessionLive: boolean } | null }
  | { number: 'static'; hasSource: boolean };

/**
 * A recycled binding stays `recycled` in its hold-back too: the doubt that another visitor was shown
 * the number outweighs the session having ended.
 */
export function attributionKindOf(call: AttributedCall): AttributionKind {
  if (call.number === 'static') return call.hasSource ? 'static' : 'none';
  if (call.binding === null) return 'none';
  if (call.binding.recycled) return 'recycled';
  return call.binding.sessionLive ? 'session' : 'after_session';
}

/**
 * Whole seconds from the binding's creation to the call. A call time before the binding (a switch
 * clock behind ours) counts as 0 rather than a negative age.
 */
export function boundSecondsOf(boundAtMs: number, callAtMs: number): number {
  return Math.max(0, Math.floor((callAtMs - boundAtMs) / 1000));
}
