import { inlineParameters, sqlLiteral } from './sql-literals';

describe('inlineParameters (db/sql-literals.ts)', () => {
  it('writes each $n as its value, however often and in whatever order it appears', () => {
    expect(inlineParameters('SELECT $2::int, $1::text, $2::int', ['a', 7])).toBe(
      "SELECT '7'::int, 'a'::text, '7'::int",
    );
  });

  it('tells $1 from $10', () => {
    const values = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(inlineParameters('SELECT $1, $10', values)).toBe("SELECT '1', '10'");
  });

  it('leaves $n alone inside quoted text, quoted names and comments', () => {
    const text = `SELECT '$1', 'it''s $1', E'\\' $1', "col$1", $1 -- $1\n/* $1 */ FROM t`;
    expect(inlineParameters(text, ['x'])).toBe(
      `SELECT '$1', 'it''s $1', E'\\' $1', "col$1", 'x' -- $1\n/* $1 */ FROM t`,
    );
  });

  it('leaves a $ inside a name alone', () => {
    expect(inlineParameters('SELECT a$1 FROM t WHERE b = $1', [3])).toBe("SELECT a$1 FROM t WHERE b = '3'");
  });

  it('refuses dollar-quoted text, a parameter it was not given and an unclosed quote', () => {
    expect(() => inlineParameters('SELECT $$ $1 $$', [1])).toThrow('dollar-quoted');
    expect(() => inlineParameters('SELECT $2', [1])).toThrow('parameter $2 of 1');
    expect(() => inlineParameters('SELECT $0', [1])).toThrow('parameter $0 of 1');
    expect(() => inlineParameters("SELECT 'open", [])).toThrow('unterminated quote');
    expect(() => inlineParameters('SELECT 1 /* open', [])).toThrow('unterminated comment');
  });
});

describe('sqlLiteral (db/sql-literals.ts)', () => {
  it('writes what node-postgres would send, quoted', () => {
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(undefined)).toBe('NULL');
    expect(sqlLiteral(12)).toBe("'12'");
    expect(sqlLiteral(true)).toBe("'true'");
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'");
    expect(sqlLiteral(['a', null, 'b"c'])).toBe(String.raw` E'{"a",NULL,"b\\"c"}'`);
    expect(sqlLiteral({ text: 'x' })).toBe(`'{"text":"x"}'`);
    expect(sqlLiteral(Buffer.from([0, 255]))).toBe(String.raw` E'\\x00ff'`);
  });

  it('writes a backslash so that Postgres reads one back', () => {
    expect(sqlLiteral(String.raw`a\b`)).toBe(String.raw` E'a\\b'`);
  });
});
