import { createHash } from 'node:crypto';
import { NotFoundError, ValidationError } from '@trackline/domain';
import { FakePartnersStore } from './fake-partners.store';
import { PartnersService, type CreatePartnerInput } from './partners.service';

const REALM = 'Trackline';

function validInput(overrides: Partial<CreatePartnerInput> = {}): CreatePartnerInput {
  return {
    name: 'acme',
    username: 'acme-api',
    password: 'correct horse',
    signingSecret: 'sixteen-chars-ok',
    ...overrides,
  };
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

async function expectValidation(promise: Promise<unknown>, field: string, rule?: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ValidationError);
  expect((error as ValidationError).field).toBe(field);
  if (rule !== undefined) expect((error as ValidationError).rule).toMatch(rule);
}

describe('PartnersService', () => {
  let store: FakePartnersStore;
  let service: PartnersService;

  beforeEach(() => {
    store = new FakePartnersStore();
    service = new PartnersService(store, REALM);
  });

  describe('create', () => {
    it('stores the digest HA1 values and the defaults, never the password', async () => {
      const partner = await service.create(validInput());
      expect(partner).toMatchObject({
        name: 'acme',
        digestUsername: 'acme-api',
        ha1Md5: md5('acme-api:Trackline:correct horse'),
        ha1Sha256: createHash('sha256').update('acme-api:Trackline:correct horse').digest('hex'),
        signingSecret: 'sixteen-chars-ok',
        allowIps: [],
        country: 'NO',
        timeZone: 'Europe/Oslo',
        dni: { sessionTtlSeconds: 1800, holdBackSeconds: 600, onExhausted: 'recycle', fallbackNumber: null },
        showFullAnum: false,
      });
      expect(JSON.stringify(await store.list())).not.toContain('correct horse');
    });

    it('normalises allowlist entries, country and fallback number', async () => {
      const partner = await service.create(
        validInput({
          allowIps: ['203.0.113.7', '198.51.100.0/24', '2001:DB8::1', '2001:db8:1::/48', '203.0.113.7/32'],
          country: 'se',
          timeZone: 'Europe/Stockholm',
          onExhausted: 'original',
          fallbackNumber: '08-123 456 78',
          showFullAnum: '1',
        }),
      );
      expect(partner.allowIps).toEqual([
        '203.0.113.7/32',
        '198.51.100.0/24',
        '2001:db8::1/128',
        '2001:db8:1::/48',
      ]);
      expect(partner.country).toBe('SE');
      expect(partner.dni).toMatchObject({ onExhausted: 'original', fallbackNumber: '+46812345678' });
      expect(partner.showFullAnum).toBe(true);
    });

    it.each([
      [{ name: '' }, 'name'],
      [{ name: ' acme' }, 'name'],
      [{ username: '' }, 'username'],
      [{ username: 'a:b' }, 'username'],
      [{ password: 'seven77' }, 'password'],
      [{ signingSecret: 'fifteen-chars!!' }, 'signing-secret'],
      [{ allowIps: ['10.0.0.1/33'] }, 'allow-ip'],
      [{ allowIps: ['10.1'] }, 'allow-ip'],
      [{ allowIps: ['10.0.0.1/24'] }, 'allow-ip'],
      [{ allowIps: ['fe80::1%eth0'] }, 'allow-ip'],
      [{ allowIps: ['example.com'] }, 'allow-ip'],
      [{ country: 'XX' }, 'country'],
      [{ timeZone: 'Europe/Atlantis' }, 'timezone'],
      [{ onExhausted: 'drop' }, 'on-exhausted'],
      [{ fallbackNumber: 'call me' }, 'fallback-number'],
      [{ showFullAnum: 'true' }, 'show-full-anum'],
    ])('rejects %p naming %s', async (overrides, field) => {
      await expectValidation(service.create(validInput(overrides)), field);
      expect(await store.list()).toEqual([]);
    });

    it('suggests the network when a CIDR has host bits set', async () => {
      await expectValidation(
        service.create(validInput({ allowIps: ['10.0.0.1/24'] })),
        'allow-ip',
        /10\.0\.0\.0\/24/,
      );
    });

    it('refuses a taken name or username', async () => {
      await service.create(validInput());
      await expectValidation(service.create(validInput({ username: 'other' })), 'name', /taken/);
      await expectValidation(service.create(validInput({ name: 'other' })), 'username', /taken/);
    });
  });

  describe('update', () => {
    beforeEach(async () => {
      await service.create(validInput({ fallbackNumber: '22334455' }));
    });

    it('changes only the settings given and reports them', async () => {
      const { partner, changed } = await service.update('acme', {
        allowIps: ['192.0.2.1'],
        timeZone: 'UTC',
        onExhausted: 'original',
      });
      expect(changed).toEqual(['allow-ip', 'timezone', 'on-exhausted']);
      expect(partner.allowIps).toEqual(['192.0.2.1/32']);
      expect(partner.timeZone).toBe('UTC');
      expect(partner.dni).toMatchObject({ onExhausted: 'original', fallbackNumber: '+4722334455' });
      expect(partner.signingSecret).toBe('sixteen-chars-ok');
    });

    it('recomputes the HA1 for a new password and for a new username', async () => {
      const afterPassword = await service.update('acme', { password: 'new password' });
      expect(afterPassword.partner.ha1Md5).toBe(md5('acme-api:Trackline:new password'));
      const afterRename = await service.update('acme', { username: 'acme2', password: 'new password' });
      expect(afterRename.partner.ha1Md5).toBe(md5('acme2:Trackline:new password'));
      expect(afterRename.changed).toEqual(['username', 'password']);
    });

    it('refuses a new username without the password its HA1 needs', async () => {
      await expectValidation(service.update('acme', { username: 'acme2' }), 'password', /username/);
    });

    it('clears the fallback number with an empty value', async () => {
      const { partner } = await service.update('acme', { fallbackNumber: '' });
      expect(partner.dni.fallbackNumber).toBeNull();
    });

    it('refuses an update that changes nothing', async () => {
      await expectValidation(service.update('acme', {}), 'options');
    });

    it('refuses a username another partner has', async () => {
      await service.create(validInput({ name: 'beta', username: 'beta-api' }));
      await expectValidation(
        service.update('acme', { username: 'beta-api', password: 'whatever1' }),
        'username',
      );
    });

    it('answers an unknown partner with NotFoundError', async () => {
      await expect(service.update('nobody', { timeZone: 'UTC' })).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('defineCustomField', () => {
    beforeEach(async () => {
      await service.create(validInput());
    });

    it('is idempotent', async () => {
      expect((await service.defineCustomField('acme', 'customer', 'custom_1')).created).toBe(true);
      expect((await service.defineCustomField('acme', 'customer', 'custom_1')).created).toBe(false);
      expect((await service.defineCustomField('acme', 'source', 'custom_1')).created).toBe(true);
      const [partner] = await service.list();
      expect(partner!.customFields).toEqual({ customer: ['custom_1'], source: ['custom_1'] });
    });

    it.each([
      ['customer', 'Custom_1', 'field'],
      ['customer', '1field', 'field'],
      ['customer', 'a'.repeat(64), 'field'],
      ['customer', 'custnr', 'field'],
      ['source', 'phonenr', 'field'],
      ['campaign', 'custom_1', 'entity'],
    ])('rejects entity %s field %s naming %s', async (entity, field, named) => {
      await expectValidation(service.defineCustomField('acme', entity, field), named);
    });

    it('answers an unknown partner with NotFoundError', async () => {
      await expect(service.defineCustomField('nobody', 'customer', 'custom_1')).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });
  });

  describe('findForDigest', () => {
    it('returns what digest authentication and the routes need', async () => {
      const created = await service.create(
        validInput({ allowIps: ['192.0.2.0/24'], showFullAnum: '1', rateLimitPerMinute: '90' }),
      );
      await service.defineCustomField('acme', 'customer', 'custom_1');
      expect(await service.findForDigest('acme-api')).toEqual({
        partner: {
          id: created.id,
          name: 'acme',
          country: 'NO',
          timeZone: 'Europe/Oslo',
          showFullAnum: true,
          rateLimitPerMinute: 90,
          customFields: { customer: ['custom_1'], source: [] },
        },
        ha1Md5: md5('acme-api:Trackline:correct horse'),
        ha1Sha256: created.ha1Sha256,
        allowIps: ['192.0.2.0/24'],
      });
    });

    it('returns null for an unknown username', async () => {
      await service.create(validInput());
      expect(await service.findForDigest('acme')).toBeNull();
    });
  });
});
