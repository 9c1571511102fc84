import { isBigintId, isUuid } from './record-id';

describe('record ids', () => {
  it('accepts decimal ids that fit a bigint and nothing else', () => {
    expect(isBigintId('1')).toBe(true);
    expect(isBigintId('9223372036854775807')).toBe(true);
    expect(isBigintId('9223372036854775808')).toBe(false);
    expect(isBigintId('0')).toBe(false);
    expect(isBigintId('01')).toBe(false);
    expect(isBigintId('1a')).toBe(false);
    expect(isBigintId('')).toBe(false);
  });

  it('accepts UUIDs in either case and nothing else', () => {
    expect(isUuid('3f1c1b0e-8a53-4a0e-9d1e-0a6f1f6f2b11')).toBe(true);
    expect(isUuid('3F1C1B0E-8A53-4A0E-9D1E-0A6F1F6F2B11')).toBe(true);
    expect(isUuid('3f1c1b0e8a534a0e9d1e0a6f1f6f2b11')).toBe(false);
    expect(isUuid('3f1c1b0e-8a53-4a0e-9d1e-0a6f1f6f2b1')).toBe(false);
  });
});
