import { attributionKindOf, boundSecondsOf } from './attribution-kind';

describe('attributionKindOf', () => {
  it.each([
    [{ recycled: false, sessionLive: true }, 'session'],
    [{ recycled: false, sessionLive: false }, 'after_session'],
    [{ recycled: true, sessionLive: true }, 'recycled'],
    [{ recycled: true, sessionLive: false }, 'recycled'],
  ] as const)('a pool binding %o is %s', (binding, kind) => {
    expect(attributionKindOf({ number: 'pool', binding })).toBe(kind);
  });

  it('is none for a pool number without a binding and a static number without a source', () => {
    expect(attributionKindOf({ number: 'pool', binding: null })).toBe('none');
    expect(attributionKindOf({ number: 'static', hasSource: false })).toBe('none');
  });

  it('is static for a static source', () => {
    expect(attributionKindOf({ number: 'static', hasSource: true })).toBe('static');
  });
});

describe('boundSecondsOf', () => {
  it('counts whole seconds, rounding down', () => {
    expect(boundSecondsOf(1_000, 1_000)).toBe(0);
    expect(boundSecondsOf(1_000, 1_999)).toBe(0);
    expect(boundSecondsOf(1_000, 301_500)).toBe(300);
  });

  it('counts a call before the binding as 0', () => {
    expect(boundSecondsOf(10_000, 4_000)).toBe(0);
  });
});
