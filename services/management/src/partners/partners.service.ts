import { NotFoundError, ValidationError } from '@trackline/domain';
import type { AuthenticatedPartner } from '../http/route-definition';
import type { ProjectionPublisher } from '../projections/projection-publisher';
import { parseCustomFieldName } from './custom-field-name';
import { digestHa1 } from './digest-ha1';
import { CUSTOM_FIELD_ENTITIES, type CustomFieldEntity } from './partner-custom-field.entity';
import type { DigestCredentials, PartnerDirectory } from './partner-directory';
import {
  parseAllowIps,
  parseAnumMaskAfterDays,
  parseCdrRetentionMonths,
  parseCountry,
  parseFallbackNumber,
  parseName,
  parseOnExhausted,
  parsePassword,
  parseRingTimeout,
  parseScreenCalls,
  parseShowFullAnum,
  parseSigningSecret,
  parseTimeZone,
  parseUsername,
} from './partner-settings';
import type { Partner, PartnerValues } from './partner';
import type { PartnersStore } from './partners.store';

/** The operator's input as typed (strings); every value is checked here. */
export interface PartnerSettingsInput {
  username?: string;
  password?: string;
  signingSecret?: string;
  /** Replaces the whole list when given. */
  allowIps?: string[];
  country?: string;
  timeZone?: string;
  onExhausted?: string;
  /** Empty string clears it. */
  fallbackNumber?: string;
  /** "0" or "1". */
  showFullAnum?: string;
  /** Whole seconds; empty string returns to the service default. */
  ringTimeout?: string;
  /** "0" or "1". */
  screenCalls?: string;
  /** Whole months, 1–1200. */
  cdrRetentionMonths?: string;
  /** Whole days, or "off". */
  anumMaskAfterDays?: string;
}

export interface CreatePartnerInput extends PartnerSettingsInput {
  name: string;
  username: string;
  password: string;
  signingSecret: string;
}

export interface PartnerUpdate {
  partner: Partner;
  /** Option names of the settings that were given. */
  changed: string[];
}

const DEFAULTS = {
  country: 'NO',
  timeZone: 'Europe/Oslo',
  sessionTtlSeconds: 1800,
  holdBackSeconds: 600,
  onExhausted: 'recycle',
  cdrRetentionMonths: 24,
} as const;

export class PartnersService implements PartnerDirectory {
  constructor(
    private readonly store: PartnersStore,
    /** The digest realm (DIGEST_REALM); part of every stored HA1. */
    private readonly realm: string,
    /** Told after each committed create/update: the signing secret and DNI settings live in Redis too. */
    private readonly listeners: readonly ProjectionPublisher[] = [],
  ) {}

  async create(input: CreatePartnerInput): Promise<Partner> {
    const name = parseName(input.name);
    const username = parseUsername(input.username);
    const password = parsePassword(input.password);
    const country = parseCountry(input.country ?? DEFAULTS.country);
    const values: PartnerValues = {
      name,
      digestUsername: username,
      ...this.ha1Of(username, password),
      signingSecret: parseSigningSecret(input.signingSecret),
      allowIps: parseAllowIps(input.allowIps ?? []),
      country,
      timeZone: parseTimeZone(input.timeZone ?? DEFAULTS.timeZone),
      dni: {
        sessionTtlSeconds: DEFAULTS.sessionTtlSeconds,
        holdBackSeconds: DEFAULTS.holdBackSeconds,
        onExhausted: parseOnExhausted(input.onExhausted ?? DEFAULTS.onExhausted),
        fallbackNumber:
          input.fallbackNumber === undefined ? null : parseFallbackNumber(input.fallbackNumber, country),
      },
      showFullAnum: input.showFullAnum === undefined ? false : parseShowFullAnum(input.showFullAnum),
      calls: {
        ringTimeoutSeconds: input.ringTimeout === undefined ? null : parseRingTimeout(input.ringTimeout),
        screenCalls: input.screenCalls === undefined ? false : parseScreenCalls(input.screenCalls),
      },
      cdrRetentionMonths:
        input.cdrRetentionMonths === undefined
          ? DEFAULTS.cdrRetentionMonths
          : parseCdrRetentionMonths(input.cdrRetentionMonths),
      anumMaskAfterDays:
        input.anumMaskAfterDays === undefined ? null : parseAnumMaskAfterDays(input.anumMaskAfterDays),
    };
    if ((await this.store.findByName(name)) !== null) {
      throw new ValidationError('name', 'is already taken by another partner');
    }
    if ((await this.store.findByUsername(username)) !== null) {
      throw new ValidationError('username', 'is already taken by another partner');
    }
    const partner = await this.store.insert(values);
    await this.notify(partner.id);
    return partner;
  }

  async update(name: string, input: PartnerSettingsInput): Promise<PartnerUpdate> {
    const current = await this.requireByName(name);
    const changes: Partial<PartnerValues> = {};
    const changed: string[] = [];

    // HA1 hashes the username together with the password, so neither can change alone.
    if (input.username !== undefined || input.password !== undefined) {
      if (input.password === undefined) {
        throw new ValidationError('password', 'is required when the username changes');
      }
      const username = input.username === undefined ? current.digestUsername : parseUsername(input.username);
      Object.assign(changes, {
        digestUsername: username,
        ...this.ha1Of(username, parsePassword(input.password)),
      });
      if (input.username !== undefined) changed.push('username');
      changed.push('password');
    }
    if (input.signingSecret !== undefined) {
      changes.signingSecret = parseSigningSecret(input.signingSecret);
      changed.push('signing-secret');
    }
    if (input.allowIps !== undefined) {
      changes.allowIps = parseAllowIps(input.allowIps);
      changed.push('allow-ip');
    }
    const country = input.country === undefined ? current.country : parseCountry(input.country);
    if (input.country !== undefined) {
      changes.country = country;
      changed.push('country');
    }
    if (input.timeZone !== undefined) {
      changes.timeZone = parseTimeZone(input.timeZone);
      changed.push('timezone');
    }
    if (input.onExhausted !== undefined || input.fallbackNumber !== undefined) {
      changes.dni = {
        ...current.dni,
        ...(input.onExhausted === undefined ? {} : { onExhausted: parseOnExhausted(input.onExhausted) }),
        ...(input.fallbackNumber === undefined
          ? {}
          : { fallbackNumber: parseFallbackNumber(input.fallbackNumber, country) }),
      };
      if (input.onExhausted !== undefined) changed.push('on-exhausted');
      if (input.fallbackNumber !== undefined) changed.push('fallback-number');
    }
    if (input.showFullAnum !== undefined) {
      changes.showFullAnum = parseShowFullAnum(input.showFullAnum);
      changed.push('show-full-anum');
    }
    if (input.ringTimeout !== undefined || input.screenCalls !== undefined) {
      changes.calls = {
        ringTimeoutSeconds:
          input.ringTimeout === undefined
            ? current.calls.ringTimeoutSeconds
            : parseRingTimeout(input.ringTimeout),
        screenCalls:
          input.screenCalls === undefined ? current.calls.screenCalls : parseScreenCalls(input.screenCalls),
      };
      if (input.ringTimeout !== undefined) changed.push('ring-timeout');
      if (input.screenCalls !== undefined) changed.push('screen-calls');
    }
    if (input.cdrRetentionMonths !== undefined) {
      changes.cdrRetentionMonths = parseCdrRetentionMonths(input.cdrRetentionMonths);
      changed.push('cdr-retention-months');
    }
    if (input.anumMaskAfterDays !== undefined) {
      changes.anumMaskAfterDays = parseAnumMaskAfterDays(input.anumMaskAfterDays);
      changed.push('anum-mask-after-days');
    }
    if (changed.length === 0) throw new ValidationError('options', 'name at least one setting to change');

    const taken =
      changes.digestUsername === undefined ? null : await this.store.findByUsername(changes.digestUsername);
    if (taken !== null && taken.id !== current.id) {
      throw new ValidationError('username', 'is already taken by another partner');
    }
    const partner = await this.store.update(current.id, changes);
    await this.notify(partner.id);
    return { partner, changed };
  }

  list(): Promise<Partner[]> {
    return this.store.list();
  }

  /** Idempotent: defining a field that exists is not an error (`created` is then false). */
  async defineCustomField(
    partnerName: string,
    entity: string,
    field: string,
  ): Promise<{ partner: Partner; entity: CustomFieldEntity; field: string; created: boolean }> {
    const checkedEntity = CUSTOM_FIELD_ENTITIES.find((candidate) => candidate === entity);
    if (checkedEntity === undefined) {
      throw new ValidationError('entity', `must be one of ${CUSTOM_FIELD_ENTITIES.join(', ')}`);
    }
    const checkedField = parseCustomFieldName(checkedEntity, field);
    const partner = await this.requireByName(partnerName);
    const created = await this.store.addCustomField(partner.id, checkedEntity, checkedField);
    return { partner, entity: checkedEntity, field: checkedField, created };
  }

  async findForDigest(username: string): Promise<DigestCredentials | null> {
    const partner = await this.store.findByUsername(username);
    if (partner === null) return null;
    return {
      partner: toAuthenticatedPartner(partner),
      ha1Md5: partner.ha1Md5,
      ha1Sha256: partner.ha1Sha256,
      allowIps: partner.allowIps,
    };
  }

  private async requireByName(name: string): Promise<Partner> {
    const partner = await this.store.findByName(name);
    if (partner === null) throw new NotFoundError(`partner ${name}`);
    return partner;
  }

  private async notify(partnerId: string): Promise<void> {
    for (const listener of this.listeners) await listener.partnerChanged(partnerId);
  }

  private ha1Of(username: string, password: string): { ha1Md5: string; ha1Sha256: string } {
    return {
      ha1Md5: digestHa1('md5', username, this.realm, password),
      ha1Sha256: digestHa1('sha256', username, this.realm, password),
    };
  }
}

export function toAuthenticatedPartner(partner: Partner): AuthenticatedPartner {
  return {
    id: partner.id,
    name: partner.name,
    country: partner.country,
    timeZone: partner.timeZone,
    showFullAnum: partner.showFullAnum,
    customFields: { customer: [...partner.customFields.customer], source: [...partner.customFields.source] },
  };
}
