import { fieldLabel } from './field-label';

describe('fieldLabel', () => {
  it.each([
    ['email', 'email'],
    ['conditions[0].cost_per_lead', 'conditions[0].cost_per_lead'],
    ['', '(empty name)'],
    [' 1', '" 1"'],
    ['a\u0000b', '"a?b"'],
    ['x'.repeat(101), `"${'x'.repeat(64)}…"`],
    ['0000-00-00 00:00:00', '"0000-00-00 00:00:00"'],
  ])('shows %j as %s', (name, label) => {
    expect(fieldLabel(name)).toBe(label);
  });
});
