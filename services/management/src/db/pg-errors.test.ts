import { QueryFailedError } from 'typeorm';
import {
  isDataException,
  isForeignKeyViolation,
  isUndefinedTable,
  isUniqueViolation,
  pgFailureOf,
} from './pg-errors';

/** A failed query as TypeORM hands it over: the driver's error, with its SQLSTATE, inside. */
function failed(code: string, constraint?: string): QueryFailedError {
  return new QueryFailedError('INSERT …', [], Object.assign(new Error('refused'), { code, constraint }));
}

describe('pg-errors', () => {
  it('reads the SQLSTATE and the constraint of a failed query', () => {
    expect(pgFailureOf(failed('23505', 'UQ_x'))).toEqual({ code: '23505', constraint: 'UQ_x' });
    expect(pgFailureOf(failed('22P05'))).toEqual({ code: '22P05', constraint: undefined });
  });

  it('finds nothing in an error that is not a failed query', () => {
    expect(pgFailureOf(new Error('23505'))).toBeNull();
    expect(pgFailureOf(Object.assign(new Error('x'), { code: '23505' }))).toBeNull();
    expect(pgFailureOf(null)).toBeNull();
    expect(pgFailureOf('23505')).toBeNull();
    expect(isUniqueViolation(new Error('duplicate key'))).toBe(false);
  });

  it('tells a unique violation, of any constraint or of the one named', () => {
    expect(isUniqueViolation(failed('23505', 'UQ_customers_partner_custnr'))).toBe(true);
    expect(
      isUniqueViolation(failed('23505', 'UQ_customers_partner_custnr'), 'UQ_customers_partner_custnr'),
    ).toBe(true);
    expect(isUniqueViolation(failed('23505', 'UQ_other'), 'UQ_customers_partner_custnr')).toBe(false);
    expect(isUniqueViolation(failed('23503', 'UQ_customers_partner_custnr'))).toBe(false);
  });

  it('tells a foreign key violation by its constraint', () => {
    expect(isForeignKeyViolation(failed('23503', 'FK_a'), 'FK_a')).toBe(true);
    expect(isForeignKeyViolation(failed('23503', 'FK_a'), 'FK_b')).toBe(false);
    expect(isForeignKeyViolation(failed('23505', 'FK_a'), 'FK_a')).toBe(false);
  });

  it('tells every code of class 22 as a data exception, and nothing else', () => {
    expect(isDataException(failed('22021'))).toBe(true);
    expect(isDataException(failed('22P05'))).toBe(true);
    expect(isDataException(failed('23505'))).toBe(false);
    expect(isDataException(failed('40001'))).toBe(false);
  });

  it('tells a missing table', () => {
    expect(isUndefinedTable(failed('42P01'))).toBe(true);
    expect(isUndefinedTable(failed('42P02'))).toBe(false);
  });
});
