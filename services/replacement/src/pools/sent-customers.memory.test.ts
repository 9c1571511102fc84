import { SentCustomerMemory } from './sent-customers.memory';

describe('SentCustomerMemory', () => {
  let now = 0;
  const clock = () => now;

  beforeEach(() => {
    now = 1_000;
  });

  it('knows a confirmed marker for its ttl, and only that marker of that partner and custnr', () => {
    const memory = new SentCustomerMemory(1_000, clock);
    expect(memory.isCurrent('acme', 'D-1', 'm1')).toBe(false);
    memory.confirm('acme', 'D-1', 'm1');
    expect(memory.isCurrent('acme', 'D-1', 'm1')).toBe(true);
    expect(memory.isCurrent('acme', 'D-1', 'm2')).toBe(false);
    expect(memory.isCurrent('acme', 'D-2', 'm1')).toBe(false);
    expect(memory.isCurrent('other', 'D-1', 'm1')).toBe(false);
    now += 999;
    expect(memory.isCurrent('acme', 'D-1', 'm1')).toBe(true);
    now += 1;
    expect(memory.isCurrent('acme', 'D-1', 'm1')).toBe(false);
  });

  it('keeps the latest marker confirmed for a custnr', () => {
    const memory = new SentCustomerMemory(1_000, clock);
    memory.confirm('acme', 'D-1', 'm1');
    memory.confirm('acme', 'D-1', 'm2');
    expect(memory.isCurrent('acme', 'D-1', 'm1')).toBe(false);
    expect(memory.isCurrent('acme', 'D-1', 'm2')).toBe(true);
  });

  it('remembers nothing with a ttl of 0', () => {
    const memory = new SentCustomerMemory(0, clock);
    memory.confirm('acme', 'D-1', 'm1');
    expect(memory.isCurrent('acme', 'D-1', 'm1')).toBe(false);
  });

  it('stays bounded: the custnr confirmed longest ago goes first', () => {
    const memory = new SentCustomerMemory(60_000, clock);
    for (let i = 0; i < 10_000; i++) memory.confirm('acme', `C-${i}`, 'm');
    memory.confirm('acme', 'C-0', 'm');
    memory.confirm('acme', 'new', 'm');
    expect(memory.isCurrent('acme', 'C-0', 'm')).toBe(true);
    expect(memory.isCurrent('acme', 'C-1', 'm')).toBe(false);
    expect(memory.isCurrent('acme', 'C-2', 'm')).toBe(true);
    expect(memory.isCurrent('acme', 'new', 'm')).toBe(true);
  });
});
