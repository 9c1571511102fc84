import { SAMPLE_CDR as cdr } from '../test-support/sample-cdr';
import { toCdrRecord } from './cdr-record';

describe('toCdrRecord', () => {
  it('renders the basic record, the caller masked unless shown whole', () => {
    expect(toCdrRecord(cdr, { extended: false, showFullAnum: false })).toEqual({
      cdr_id: '42',
      start: '2026-11-27 07:00:01',
      duration: '64',
      anum: '+4798765xxx',
      bnum: '+4791000001',
      cnum: null,
      customer_id: '7',
      source_id: '13',
      custnr: 'B-7',
      answered: '1',
      anum_ndc_name: 'mobile',
    });
    expect(toCdrRecord(cdr, { extended: false, showFullAnum: true }).anum).toBe('+4798765432');
  });

  it('starts the extended record with the basic one, in the same order, then the extended fields', () => {
    const basic = toCdrRecord(cdr, { extended: false, showFullAnum: false });
    const extended = toCdrRecord(cdr, { extended: true, showFullAnum: false });
    // Both orders are held through the API by cdrs.integration.test.ts; here, that the two shapes agree.
    const basicFields = Object.keys(basic);
    expect(basicFields).toHaveLength(11);
    expect(Object.keys(extended).slice(0, basicFields.length)).toEqual(basicFields);
    expect(Object.keys(extended)).toHaveLength(basicFields.length + 36);
    for (const field of basicFields) expect(extended[field]).toEqual(basic[field]);
    expect(extended).toMatchObject({
      timestamp: '2026-11-27 07:01:05',
      bound_seconds: '12',
      outcome_status: 'sale',
      outcome_modified: '2026-11-27 09:30:00',
      spam_score: '10',
      spam_reasons: '',
      spam: '0',
      transcript_status: 'done',
      classification: 'lead',
      keywords_spotted: 'financ*,warranty',
    });
  });

  it('renders a record without a transcript as status none, its fields null', () => {
    const record = toCdrRecord({ ...cdr, transcript: null }, { extended: true, showFullAnum: false });
    expect(record).toMatchObject({ transcript_status: 'none', classification: null, keywords_spotted: null });
    const pending = { status: 'pending' as const, classification: null, keywords: [] };
    expect(
      toCdrRecord({ ...cdr, transcript: pending }, { extended: true, showFullAnum: false }),
    ).toMatchObject({ transcript_status: 'pending', keywords_spotted: null });
  });
});
