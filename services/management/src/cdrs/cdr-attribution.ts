import type { CallAttribution } from '@trackline/contracts';
import { attributionKindOf, boundSecondsOf, type AttributionKind } from '@trackline/domain';
import type { DialledNumber } from './cdr';
import type { CdrSource } from '../sources/cdr-sources.reader';

/**
 * A record's attribution confidence (docs/cdrs.md, Attribution confidence). A static number's is
 * decided here with the source ingestion chose; a pool number's is what replacement decided when
 * it routed the call. An attribution an older replacement wrote without it gives what can still be
 * known: no session is `none`; with a session, whether it was live or recycled is not known (null).
 */
export function recordAttribution(
  dialled: DialledNumber,
  source: CdrSource | null,
  attribution: CallAttribution | null,
): { attribution: AttributionKind | null; boundSeconds: number | null } {
  if (dialled.kind === 'static')
    return {
      attribution: attributionKindOf({ number: 'static', hasSource: source !== null }),
      boundSeconds: null,
    };
  if (attribution === null) return { attribution: 'none', boundSeconds: null };
  const kind = attribution.kind ?? (attribution.sessionId === null ? 'none' : null);
  const boundSeconds =
    attribution.boundAt === null ? null : boundSecondsOf(attribution.boundAt, Date.parse(attribution.at));
  return { attribution: kind, boundSeconds };
}
