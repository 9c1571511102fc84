import { isTracklineError } from '@trackline/domain';
import { MethodNotAllowedError, NotImplementedError } from './http-errors';

describe('errors of the HTTP layer', () => {
  it.each([
    [new MethodNotAllowedError(['GET', 'PUT']), 405, 'Method not allowed; allowed: GET, PUT'],
    [new NotImplementedError('Method PATCH is not implemented'), 501, 'Method PATCH is not implemented'],
  ])('%p carries status %i for the one error mapper', (error, status, message) => {
    expect(isTracklineError(error)).toBe(true);
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  it('keeps its own copy of the allowed methods', () => {
    const allow = ['GET'];
    const error = new MethodNotAllowedError(allow);
    allow.push('DELETE');
    expect(error.allow).toEqual(['GET']);
  });
});
