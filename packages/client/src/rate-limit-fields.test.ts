import { parsePolicyList, rateLimitOf } from './rate-limit-fields';

describe('the RateLimit fields', () => {
  it('reads the budget from the policy and the current state', () => {
    expect(
      rateLimitOf({ 'ratelimit-policy': '"default";q=600;w=60', ratelimit: '"default";r=412;t=40' }),
    ).toEqual({ limit: 600, remaining: 412, resetSeconds: 40 });
  });

  it('reads them from a fetch Headers too, as openapi-fetch answers carry them', () => {
    const headers = new Headers({
      'RateLimit-Policy': '"default";q=90;w=60',
      RateLimit: '"default";r=3;t=7',
    });
    expect([rateLimitOf(headers), rateLimitOf(new Headers())]).toEqual([
      { limit: 90, remaining: 3, resetSeconds: 7 },
      undefined,
    ]);
  });

  it('takes the quota of the policy the current state names', () => {
    expect(
      rateLimitOf({
        'ratelimit-policy': '"burst";q=10;w=1, "day";q=5000;w=86400',
        ratelimit: '"day";r=7;t=3600',
      }),
    ).toEqual({ limit: 5000, remaining: 7, resetSeconds: 3600 });
  });

  it('gives nothing when a field is missing, malformed or lacks a parameter', () => {
    expect(
      [
        { ratelimit: '"default";r=1;t=2' },
        { 'ratelimit-policy': '"default";q=600;w=60' },
        { 'ratelimit-policy': 'default;q=600;w=60', ratelimit: '"default";r=1;t=2' },
        { 'ratelimit-policy': '"default";q=600;w=60', ratelimit: '"default";r=1' },
        { 'ratelimit-policy': '"other";q=600;w=60', ratelimit: '"default";r=1;t=2' },
        { 'ratelimit-limit': '600', 'ratelimit-remaining': '1', 'ratelimit-reset': '2' },
      ].map((headers) => rateLimitOf(headers)),
    ).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('reads every item and parameter of a list', () => {
    expect(parsePolicyList('"a";q=1;w=2,"b";r=0')).toEqual([
      {
        name: 'a',
        params: new Map([
          ['q', 1],
          ['w', 2],
        ]),
      },
      { name: 'b', params: new Map([['r', 0]]) },
    ]);
  });
});
