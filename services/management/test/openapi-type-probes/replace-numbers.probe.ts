import type { paths } from './replacement';

type Request = paths['/dynamic-numbers']['post']['requestBody']['content']['application/json'];
type Answer = paths['/dynamic-numbers']['post']['responses'][200]['content']['application/json'];

export const request: Request = {
  advId: 'acme',
  fullUrl: 'https://www.example.no/ad/1234',
  trackingId: 'visitor-1',
  numbers: '22 33 44 55',
  type: 'web',
  fullReferrer: '',
  parameters: { custnr: 'C-1', adId: '1234' },
  userAgent: 'Mozilla/5.0',
  requestIpAddress: '203.0.113.0',
  sessionId: '',
};

export function firstNumber(answer: Answer): string {
  return answer.success ? `${answer.numbers[0].replace_with.e164} (${answer.sessionId})` : answer.error;
}
