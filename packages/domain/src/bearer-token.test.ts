import { bearerTokenMatches } from './bearer-token';

const TOKEN = 'switch-token-0123456789';

describe('bearerTokenMatches', () => {
  it.each([
    [`Bearer ${TOKEN}`, TOKEN, true],
    [`bearer ${TOKEN}`, TOKEN, true],
    [`Bearer ${TOKEN}x`, TOKEN, false],
    [`Bearer ${TOKEN.slice(0, -1)}`, TOKEN, false],
    [`Basic ${TOKEN}`, TOKEN, false],
    [undefined, TOKEN, false],
    [`Bearer ${TOKEN}`, undefined, false],
    ['Bearer ', '', false],
  ])('%s against %s → %s', (header, expected, result) => {
    expect(bearerTokenMatches(header, expected)).toBe(result);
  });
});
