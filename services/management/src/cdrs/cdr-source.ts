import type { CallAttribution } from '@trackline/contracts';
import { chooseStaticSource } from '@trackline/domain';
import type { DialledNumber } from './cdr';
import type { CdrSource } from '../sources/cdr-sources.reader';
import type { CdrBatchLookup } from './cdr-batch-lookup';
import type { CdrWriteStore } from './cdrs.store';

/**
 * The source a call is attributed to (docs/cdrs.md, POST /telephony/cdrs, "Resolution"). Static
 * number: its open source, or the source that held it while the number is held back after closing.
 * Pool number: the source replacement attributed the call to, else the source whose answering
 * number the binding showed.
 */
export async function chooseSource(
  cdrs: Pick<CdrWriteStore, 'findSourceById' | 'findActiveSourceByPhonenr'>,
  lookup: Pick<CdrBatchLookup, 'staticSources' | 'sourceById'>,
  dialled: DialledNumber,
  attribution: CallAttribution | null,
  call: { bnum: string; start: Date },
): Promise<{ source: CdrSource | null; heldBack: boolean }> {
  if (dialled.kind === 'static')
    return chooseStaticSource(
      lookup.staticSources(dialled.partnerId, call.bnum),
      call.start,
      dialled.heldUntil,
    );
  if (attribution === null) return { source: null, heldBack: false };
  if (attribution.sourceId !== null) {
    const looked = lookup.sourceById(dialled.partnerId, attribution.sourceId);
    const source =
      looked === undefined ? await cdrs.findSourceById(dialled.partnerId, attribution.sourceId) : looked;
    if (source !== null) return { source, heldBack: false };
  }
  if (attribution.target === null) return { source: null, heldBack: false };
  return {
    source: await cdrs.findActiveSourceByPhonenr(dialled.partnerId, attribution.target),
    heldBack: false,
  };
}
