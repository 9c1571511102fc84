import {
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  TracklineError,
  UnauthorizedError,
  ValidationError,
  isTracklineError,
} from './errors';

describe('typed errors', () => {
  it.each([
    [new ValidationError('name', 'is required'), 400, 'validation_failed', 'name: is required'],
    [new UnauthorizedError('Missing credentials'), 401, 'unauthorized', 'Missing credentials'],
    [new ForbiddenError('Invalid signature'), 403, 'forbidden', 'Invalid signature'],
    [new NotFoundError('source 12'), 404, 'not_found', 'source 12 not found'],
    [new ServiceUnavailableError('Redis down'), 503, 'service_unavailable', 'Redis down'],
  ])('%p carries status %i and code %s', (error, status, code, message) => {
    expect(error).toBeInstanceOf(TracklineError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(status);
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    expect(error.name).toBe(error.constructor.name);
    expect(isTracklineError(error)).toBe(true);
  });

  it('keeps the field and rule of a validation error', () => {
    const error = new ValidationError('alt_numbers[1]', 'overlaps alt_numbers[0]');
    expect(error.field).toBe('alt_numbers[1]');
    expect(error.rule).toBe('overlaps alt_numbers[0]');
    expect(error.message).toBe('alt_numbers[1]: overlaps alt_numbers[0]');
  });

  it('recognises only its own errors', () => {
    expect(isTracklineError(new Error('x'))).toBe(false);
    expect(isTracklineError({ status: 400, code: 'validation_failed', message: 'x' })).toBe(false);
    expect(isTracklineError(undefined)).toBe(false);
    expect(isTracklineError('boom')).toBe(false);
  });
});
