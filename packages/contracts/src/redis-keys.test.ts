import {
  assertKeyPrefix,
  digestKeys,
  isKeySafeAdvId,
  numberIndexKey,
  partnerHashTag,
  partnerKeys,
  projectionKeys,
} from './redis-keys';

// Redis Cluster hashes only the part between the first "{" and the next "}".
function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  const close = key.indexOf('}', open + 1);
  return key.slice(open + 1, close);
}

describe('partner keys', () => {
  const keys = partnerKeys('tl:', 'acme');

  it('puts every key of a partner behind the prefix and under the same hash tag', () => {
    const all = [
      keys.config,
      keys.pool,
      keys.bindings,
      keys.staticRoutes,
      keys.sourcesByPhonenr,
      keys.customerEvents,
      keys.customersSent,
      keys.webSession('5d0c0d7e-7a39-4a53-9d43-3f0d7ab0c2a1'),
      keys.appSession('visitor}{42'),
      keys.call('call-1'),
      keys.poolStats(493_000),
    ];
    for (const key of all) {
      expect(key.startsWith('tl:{p:acme}:')).toBe(true);
      expect(hashTagOf(key)).toBe('p:acme');
    }
    expect(new Set(all).size).toBe(all.length);
  });

  it('keeps the tag of two partners apart even when one name extends the other', () => {
    expect(hashTagOf(partnerKeys('tl:', 'acme:x').config)).toBe('p:acme:x');
    expect(partnerKeys('tl:', 'acme').config).not.toBe(partnerKeys('tl:', 'acme:').config);
  });

  it('builds the global number index without a partner tag', () => {
    expect(numberIndexKey('t1:')).toBe('t1:tracking-numbers');
    expect(partnerHashTag('finn.no')).toBe('{p:finn.no}');
  });

  it('refuses names that would break the hash tag', () => {
    for (const bad of ['', 'a}b', 'a{b', 'a b', 'a\nb', 'x'.repeat(101)]) {
      expect(isKeySafeAdvId(bad)).toBe(false);
      expect(() => partnerKeys('tl:', bad)).toThrow(RangeError);
    }
    expect(isKeySafeAdvId('Bil-Partner_1.no')).toBe(true);
    expect(() => assertKeyPrefix('{x}:')).toThrow(RangeError);
    expect(assertKeyPrefix('')).toBe('');
  });
});

describe('global bookkeeping keys', () => {
  it('keeps every projection-rebuild key in one slot, apart from every partner', () => {
    const keys = projectionKeys('t1:');
    const all = [keys.generation, keys.rebuildLock, keys.rebuildRun('abc')];
    for (const key of all) {
      expect(key.startsWith('t1:')).toBe(true);
      expect(hashTagOf(key)).toBe('projections');
    }
    expect(new Set(all).size).toBe(all.length);
    expect(hashTagOf(partnerKeys('t1:', 'projections').config)).not.toBe('projections');
  });

  it('keeps the digest epoch in the slot of every nonce counter', () => {
    const keys = digestKeys('t1:');
    expect(hashTagOf(keys.epoch)).toBe('mgmt:digest');
    expect(hashTagOf(keys.nonceCount('00ff'))).toBe('mgmt:digest');
    expect(keys.nonceCount('a')).not.toBe(keys.nonceCount('b'));
  });

  it('refuses a prefix that would break the tags', () => {
    expect(() => projectionKeys('a{b')).toThrow(RangeError);
    expect(() => digestKeys('a b')).toThrow(RangeError);
  });
});
