import { marketingIdProblem, marketingIdsOf } from './marketing-ids';

describe('click and analytics ids', () => {
  it.each([
    ['gclid', 'EAIaIQobChMI8-Kx_abc', true],
    ['gclid', 'x'.repeat(150), true],
    ['gclid', 'x'.repeat(151), false],
    ['gclid', 'has space', false],
    ['gclid', '', false],
    ['wbraid', 'CjgKEAiA+/x', false],
    ['ga_client_id', '1234567890.1700000000', true],
    ['ga_client_id', 'GA1.1.1234567890.1700000000', true],
    ['ga_client_id', '12345<script>', false],
    ['ga_session_id', '1700000000', true],
    ['ga_session_id', '17e8', false],
    ['ga_session_id', '1'.repeat(21), false],
  ] as const)('%s %j accepted: %s', (key, value, accepted) => {
    expect(marketingIdProblem(key, value) === undefined).toBe(accepted);
  });

  it('reads the accepted ids from parameters and leaves out what breaks a rule', () => {
    expect(
      marketingIdsOf({ gclid: 'abc_1', ga_client_id: '1.2', ga_session_id: 'not digits', custnr: '7' }),
    ).toEqual({ gclid: 'abc_1', gbraid: null, wbraid: null, gaClientId: '1.2', gaSessionId: null });
    expect(marketingIdsOf(null)).toEqual({
      gclid: null,
      gbraid: null,
      wbraid: null,
      gaClientId: null,
      gaSessionId: null,
    });
  });
});
