import { cpuByCategory, type CpuProfile } from './cpu-profile-report';

describe('CPU profile report', () => {
  it('charges each sample to its own category, else to its nearest caller’s', () => {
    const frame = (functionName: string, url = '') => ({ functionName, url });
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 5, 6] },
        {
          id: 2,
          callFrame: frame('handle', 'file:///app/services/replacement/dist/routes.js'),
          children: [3],
        },
        { id: 3, callFrame: frame('stringify'), children: [4] },
        { id: 4, callFrame: frame('writev') },
        { id: 5, callFrame: frame('(idle)') },
        { id: 6, callFrame: frame('(program)') },
      ],
      samples: [3, 3, 4, 5, 6],
      timeDeltas: [10, 10, 5, 100, 7],
    };
    expect(cpuByCategory(profile)).toEqual([
      { category: 'idle', microseconds: 100 },
      { category: 'service code', microseconds: 20 },
      { category: 'other', microseconds: 7 },
      { category: 'socket writes', microseconds: 5 },
    ]);
  });
});
