import { NotFoundError, ServiceUnavailableError, ValidationError } from '@trackline/domain';
import { classifyFailure } from './cdr-ingest-outcome';

describe('classifyFailure', () => {
  it('keeps the status and message of a rule the record broke', () => {
    expect(classifyFailure('c1', new ValidationError('anum', 'must be short'))).toEqual({
      ok: false,
      callId: 'c1',
      status: 400,
      message: 'anum: must be short',
      reason: 'invalid',
    });
  });

  it('counts an unknown tracking number apart from other refusals', () => {
    expect(classifyFailure('c1', new NotFoundError('tracking number +4722334455'))).toMatchObject({
      status: 404,
      reason: 'unknown_number',
    });
  });

  it('answers 503 for a store that cannot be reached, typed or as the driver reports it', () => {
    expect(classifyFailure(null, new ServiceUnavailableError('down'))).toMatchObject({
      status: 503,
      reason: 'unavailable',
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(classifyFailure('c1', refused)).toEqual({
      ok: false,
      callId: 'c1',
      status: 503,
      message: 'Call record cannot be stored right now; retry later',
      reason: 'unavailable',
      cause: refused,
    });
  });

  it('refuses for good a value Postgres cannot store (SQLSTATE class 22)', () => {
    const error = Object.assign(new Error('value too long for type character varying(32)'), {
      driverError: { code: '22001' },
    });
    expect(classifyFailure('c1', error)).toMatchObject({
      status: 400,
      message: 'record: cannot be stored (value too long for type character varying(32))',
      reason: 'invalid',
      cause: error,
    });
  });

  it('hides any other fault behind a 500 and keeps it for the log', () => {
    const error = Object.assign(new Error('duplicate key'), { driverError: { code: '23505' } });
    expect(classifyFailure('c1', error)).toEqual({
      ok: false,
      callId: 'c1',
      status: 500,
      message: 'Call record could not be stored (internal error, logged)',
      reason: 'error',
      cause: error,
    });
  });
});
