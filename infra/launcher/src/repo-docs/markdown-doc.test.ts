import { relativeLinkTargets, sections, variableRows } from './markdown-doc';

describe('sections', () => {
  it('splits at level-two headings, ignoring headings inside code fences', () => {
    const doc = [
      '# Title',
      'intro',
      '## One',
      'a',
      '```sh',
      '## not a heading',
      '```',
      '### Sub',
      'b',
      '## Two',
      'c',
    ].join('\n');
    const found = sections(doc);
    expect(found.map((section) => section.heading)).toEqual(['One', 'Two']);
    expect(found[0].body).toContain('### Sub');
    expect(found[0].body).not.toContain('not a heading');
    expect(found[1].body).toBe('c\n');
  });
});

describe('variableRows', () => {
  it('reads rows whose first cell is a variable, with escaped pipes kept inside a cell', () => {
    const table = [
      '| Variable | Type | Default | Meaning |',
      '|---|---|---|---|',
      '| `REDIS_URL` | `redis://` URL | `redis://127.0.0.1:6379` | Redis. |',
      '| `LOG_LEVEL` | `a` \\| `b` | `info` | Log lines. |',
      '| not a variable | x | y | z |',
    ].join('\n');
    expect(variableRows(table)).toEqual([
      { name: 'REDIS_URL', cells: ['`redis://` URL', '`redis://127.0.0.1:6379`', 'Redis.'] },
      { name: 'LOG_LEVEL', cells: ['`a` \\| `b`', '`info`', 'Log lines.'] },
    ]);
  });
});

describe('relativeLinkTargets', () => {
  it('keeps repository links (inline and reference), without fragments; drops web, mail and anchor links', () => {
    const doc = [
      'See [config](docs/configuration.md#stores) and [keys](redis-keys.md "Redis keys").',
      'Also [site](https://example.com/x.md), [mail](mailto:a@b.c), [here](#top), [spaced](my%20file.md).',
      '[ref]: ../README.md',
      'Inline `[not](a-link.md)` and:',
      '```md',
      '[fenced](nope.md)',
      '```',
    ].join('\n');
    expect(relativeLinkTargets(doc)).toEqual([
      'docs/configuration.md',
      'redis-keys.md',
      'my file.md',
      '../README.md',
    ]);
  });
});
