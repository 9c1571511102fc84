import {
  decodeProjectionGeneration,
  encodeProjectionGeneration,
  needsRebuild,
} from './projection-generation.codec';
import { PROJECTION_VERSION } from './projection-version';

describe('projection generation marker', () => {
  const current = { version: PROJECTION_VERSION, id: '0123abcd', builtAt: '2026-11-25T06:00:00.000Z' };

  it('round-trips and needs no rebuild at the current version', () => {
    const decoded = decodeProjectionGeneration(encodeProjectionGeneration(current));
    expect(decoded).toEqual(current);
    expect(needsRebuild(decoded)).toBe(false);
  });

  it('asks for a rebuild when missing, unreadable or older, never over a newer version', () => {
    expect(needsRebuild(decodeProjectionGeneration(null))).toBe(true);
    for (const raw of ['', 'null', '5', '{"version":"2","id":"x","built_at":"y"}', '{']) {
      expect(decodeProjectionGeneration(raw)).toBeNull();
    }
    expect(needsRebuild({ ...current, version: PROJECTION_VERSION - 1 })).toBe(true);
    expect(needsRebuild({ ...current, version: PROJECTION_VERSION + 1 })).toBe(false);
  });
});
