import { parseMachineTicks } from './bench-cpu';

describe('the machine line of /proc/stat', () => {
  it('counts every tick but idle and I/O wait as busy, stolen time included', () => {
    const stat = [
      'cpu  100 5 40 800 20 3 2 30 0 0',
      'cpu0 50 2 20 400 10 1 1 15 0 0',
      'cpu1 50 3 20 400 10 2 1 15 0 0',
      'intr 12345',
    ].join('\n');
    // user nice system idle iowait irq softirq steal; guest time is inside user already.
    expect(parseMachineTicks(stat)).toEqual({ busy: 100 + 5 + 40 + 3 + 2 + 30, total: 1000 });
  });

  it('refuses a text without the line for all cores', () => {
    expect(() => parseMachineTicks('cpu0 1 2 3 4\n')).toThrow('no line for all cores');
  });
});
