import type { Cdr } from '../cdrs/cdr';
import type { CdrReference } from '../cdrs/cdr-outcomes.store';
import { recordNotFound } from '../cdrs/cdr-reference.dto';
import type { Transcript } from './transcripts.store';

/** The reads a transcript's answer needs: its record (the cdrs feature's) and the transcript. */
export interface TranscriptReads {
  records: { findRecord(partnerId: string, reference: CdrReference): Promise<Cdr | null> };
  transcripts: { find(partnerId: string, cdrId: string): Promise<Transcript | null> };
}

/**
 * GET /cdrs/<cdr_id>/transcript and /cdrs/transcript?call_id= (docs/call-intelligence.md, API): a
 * record of the partner's answers its transcript, or none; another partner's record is as unknown
 * as a missing one.
 */
export class TranscriptsService {
  constructor(private readonly reads: TranscriptReads) {}

  async get(
    partnerId: string,
    reference: CdrReference,
  ): Promise<{ cdr: Cdr; transcript: Transcript | null }> {
    const cdr = await this.reads.records.findRecord(partnerId, reference);
    if (cdr === null) throw recordNotFound(reference);
    return { cdr, transcript: await this.reads.transcripts.find(partnerId, cdr.id) };
  }
}
