import { NotFoundError, ValidationError } from '@trackline/domain';
import { FakePartnersStore } from '../partners/fake-partners.store';
import { FakeNumbersStore } from './fake-numbers.store';
import type { NumberInventoryListener } from './number-inventory-listener';
import { NumbersService } from './numbers.service';
import { testPartnerValues } from '../test-support/test-partners';

const NOW = new Date('2026-03-02T10:00:00Z');
/** Numbers open sources ring. */
const ANSWERING = new Set(['+4723456789']);

describe('NumbersService', () => {
  let numbers: FakeNumbersStore;
  let service: NumbersService;
  let changed: string[];
  let acmeId: string;

  beforeEach(async () => {
    const partners = new FakePartnersStore();
    acmeId = (await partners.insert(testPartnerValues('acme'))).id;
    const beta = await partners.insert(testPartnerValues('beta'));
    numbers = new FakeNumbersStore();
    numbers.partnerNames.set(acmeId, 'acme');
    numbers.partnerNames.set(beta.id, 'beta');
    changed = [];
    const listener: NumberInventoryListener = { numbersChanged: async (id) => void changed.push(id) };
    service = new NumbersService(partners, numbers, [listener], {
      answeringNumbersAmong: async (asked) => asked.filter((number) => ANSWERING.has(number)),
    });
  });

  async function validationError(promise: Promise<unknown>): Promise<ValidationError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }

  it('expands ranges, adds them and tells the listener once', async () => {
    const added = await service.add('acme', 'static', ['+4722000001-+4722000003', '+4722000010'], NOW);
    expect(added.numbers).toEqual(['+4722000001', '+4722000002', '+4722000003', '+4722000010']);
    expect(added.kind).toBe('static');
    expect((await numbers.list(acmeId)).map((number) => number.e164)).toEqual(added.numbers);
    expect(changed).toEqual([acmeId]);
  });

  it('refuses numbers held by anyone, naming them, and adds none', async () => {
    await service.add('beta', 'pool', ['+4791000002'], NOW);
    changed = [];
    const error = await validationError(service.add('acme', 'static', ['+4791000001-+4791000003'], NOW));
    expect(error.field).toBe('numbers');
    expect(error.rule).toBe('already in the inventory, nothing added: +4791000002 (beta, pool)');
    expect(await numbers.list(acmeId)).toEqual([]);
    expect(changed).toEqual([]);
  });

  it('lists at most 20 duplicates and counts the rest', async () => {
    await service.add('beta', 'pool', ['+4791000100-+4791000124'], NOW);
    const error = await validationError(service.add('acme', 'pool', ['+4791000100-+4791000124'], NOW));
    expect(error.rule).toMatch(/\+4791000119 \(beta, pool\) and 5 more$/);
  });

  it.each([
    [['+4791000001', '+4791000001'], 'numbers', 'name these more than once: +4791000001'],
    [['+4791000001-+4791000005', '+4791000003-+4791000004'], 'numbers', /\+4791000003, \+4791000004$/],
    [['479100000'], '479100000', 'must be a phone number, or two phone numbers joined by "-"'],
    [['+4791000001-+4791000001x'], '+4791000001-+4791000001x', /two phone numbers joined by "-"/],
    [['+4790000000-+4790010000'], '+4790000000-+4790010000', /more than 10000/],
    [[], 'numbers', 'name at least one number or range'],
  ])('refuses %p naming %s', async (specs, field, rule) => {
    const error = await validationError(service.add('acme', 'pool', specs, NOW));
    expect(error.field).toBe(field);
    expect(error.rule).toMatch(rule);
  });

  it('refuses an unknown kind and an unknown partner', async () => {
    expect((await validationError(service.add('acme', 'dynamic', ['+4791000001'], NOW))).field).toBe('kind');
    await expect(service.add('nobody', 'pool', ['+4791000001'], NOW)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.list('nobody')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a number an open source rings, so calls cannot loop, and adds nothing', async () => {
    const error = await validationError(service.add('acme', 'pool', ['+4723456788-+4723456790'], NOW));
    expect(error.message).toBe(
      'numbers: answering numbers of open sources (calls to them would loop), nothing added: +4723456789',
    );
    expect((await service.list('acme')).numbers).toEqual([]);
    expect(changed).toEqual([]);
  });
});
