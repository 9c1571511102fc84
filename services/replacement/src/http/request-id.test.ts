import { requestIdSource } from './request-id';

describe('requestIdSource', () => {
  it('keeps a well-formed incoming X-Request-Id', () => {
    const next = requestIdSource('abcd');
    expect(next('edge-7f.3:1')).toBe('edge-7f.3:1');
  });

  it('makes distinct prefixed ids when none or a malformed one is sent', () => {
    const next = requestIdSource('abcd');
    const ids = [next(undefined), next('has space'), next(['a', 'b']), next('x'.repeat(129)), next('')];
    expect(ids).toEqual(['abcd-1', 'abcd-2', 'abcd-3', 'abcd-4', 'abcd-5']);
  });

  it('gives two processes different ids for the same counter', () => {
    expect(requestIdSource()(undefined)).not.toBe(requestIdSource()(undefined));
  });
});
