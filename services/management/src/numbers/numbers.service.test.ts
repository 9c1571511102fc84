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

  it('refuses a number the same partner released until its quarantine ends, but not for another partner', async () => {
    numbers.quarantines.set(`${acmeId} +4791000005`, new Date(NOW.getTime() + 60_000));
    const refused = await validationError(service.add('acme', 'pool', ['+4791000004-+4791000005'], NOW));
    expect(refused.message).toBe(
      'numbers: released by this partner less than 90 days ago (quarantine), nothing added: +4791000005 (until 2026-03-02 10:01:00 UTC)',
    );
    expect(await numbers.list(acmeId)).toEqual([]);
    expect((await service.add('beta', 'pool', ['+4791000005'], NOW)).numbers).toEqual(['+4791000005']);
    // Over at its end.
    await service.add('acme', 'pool', ['+4791000006'], new Date(NOW.getTime() + 60_000));
  });

  it('adds E.164 numbers by partner id, and says which numbers a partner could add', async () => {
    await service.add('beta', 'pool', ['+4791000001'], NOW);
    numbers.quarantines.set(`${acmeId} +4791000002`, new Date(NOW.getTime() + 60_000));
    const asked = ['+4791000001', '+4791000002', '+4723456789', '+4791000003'];
    expect(await service.addable(acmeId, asked, NOW)).toEqual(['+4791000003']);
    const added = await service.addToPartner(acmeId, 'static', ['+4791000003'], NOW);
    expect([added.partner.name, added.numbers]).toEqual(['acme', ['+4791000003']]);
    expect(changed).toEqual([expect.any(String), acmeId]);
    await expect(service.addToPartner('999', 'pool', ['+4791000004'], NOW)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
