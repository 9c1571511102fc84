import { ConfigError, EnvReader } from './env-config';

describe('EnvReader', () => {
  it('uses fallbacks for unset or blank variables', () => {
    const env = new EnvReader({ BLANK: '  ' });
    expect(env.port('PORT', 8080)).toBe(8080);
    expect(env.string('BLANK', 'x')).toBe('x');
    expect(env.boolean('FLAG', true)).toBe(true);
    expect(env.list('LIST')).toEqual([]);
    expect(() => env.done()).not.toThrow();
  });

  it('parses well-formed values', () => {
    const env = new EnvReader({
      PORT: '9000',
      FLAG: 'false',
      LIST: 'a, b,,c',
      LEVEL: 'debug',
      URL: 'redis://h:1',
    });
    expect(env.port('PORT', 1)).toBe(9000);
    expect(env.boolean('FLAG', true)).toBe(false);
    expect(env.list('LIST')).toEqual(['a', 'b', 'c']);
    expect(env.oneOf('LEVEL', ['info', 'debug'] as const, 'info')).toBe('debug');
    expect(env.url('URL', undefined, ['redis:'])).toBe('redis://h:1');
  });

  it('collects every bad value into one error naming each variable', () => {
    const env = new EnvReader({ PORT: '70000', FLAG: 'maybe', LEVEL: 'loud', URL: 'http://x' });
    env.port('PORT', 1);
    env.boolean('FLAG', true);
    env.oneOf('LEVEL', ['info'] as const, 'info');
    env.url('URL', undefined, ['redis:', 'rediss:']);
    let caught: unknown;
    try {
      env.done();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems[0]).toContain('PORT="70000"');
    expect(problems[1]).toContain('FLAG');
    expect(problems[2]).toContain('LEVEL');
    expect(problems[3]).toContain('URL');
  });
});
