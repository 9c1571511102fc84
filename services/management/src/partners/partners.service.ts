import { DEFAULT_HOLD_BACK_SECONDS, DEFAULT_SESSION_TTL_SECONDS } from '@trackline/contracts';
import { isSpamPolicy, NotFoundError, SPAM_POLICIES, ValidationError } from '@trackline/domain';
import type { AuthenticatedPartner } from '../http/route-definition';
import type { PartnerChangeListener } from './partner-change-listener';
import { parseCustomFieldName } from './custom-field-name';
import { digestHa1 } from './digest-ha1';
import { CUSTOM_FIELD_ENTITIES, type CustomFieldEntity } from './partner-custom-field.entity';
import type { DigestCredentials, PartnerDirectory } from '../http/digest/partner-directory';
import {
  parseCreatePartner,
  parseFallbackNumber,
  parseUpdatePartnerSettings,
  SETTING_OPTIONS,
  type PartnerSettingsInput,
} from './partner-settings.dto';
import {
  DEFAULT_POOL_SIZING,
  DEFAULT_SPAM_SETTINGS,
  type Partner,
  type PartnerValues,
  type SpamSettings,
} from './partner';
import { applyCallIntelligenceInput } from './call-intelligence-settings';
import { parseHoldBack, parseSessionLifetime } from './session-timing';
import type { PartnersStore } from './partners.store';

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
  sessionTtlSeconds: DEFAULT_SESSION_TTL_SECONDS,
  holdBackSeconds: DEFAULT_HOLD_BACK_SECONDS,
  onExhausted: 'recycle',
  cdrRetentionMonths: 24,
} as const;

export class PartnersService implements PartnerDirectory {
  constructor(
    private readonly store: PartnersStore,
    /** The digest realm (DIGEST_REALM); part of every stored HA1. */
    private readonly realm: string,
    /** Told after each committed create/update: the signing secret and DNI settings live in Redis too. */
    private readonly listeners: readonly PartnerChangeListener[] = [],
  ) {}

  async create(input: CreatePartnerInput): Promise<Partner> {
    const settings = parseCreatePartner(input);
    const { name, username, password } = settings;
    const country = settings.country ?? DEFAULTS.country;
    const values: PartnerValues = {
      name,
      digestUsername: username!,
      ...this.ha1Of(username!, password!),
      signingSecret: settings.signingSecret!,
      allowIps: settings.allowIps ?? [],
      country,
      timeZone: settings.timeZone ?? DEFAULTS.timeZone,
      dni: {
        sessionTtlSeconds: settings.sessionLifetimeSeconds ?? DEFAULTS.sessionTtlSeconds,
        holdBackSeconds: settings.holdBackSeconds ?? DEFAULTS.holdBackSeconds,
        onExhausted: settings.onExhausted ?? DEFAULTS.onExhausted,
        fallbackNumber:
          settings.fallbackNumber === undefined
            ? null
            : parseFallbackNumber(settings.fallbackNumber, country),
      },
      showFullAnum: settings.showFullAnum ?? false,
      calls: {
        ringTimeoutSeconds: settings.ringTimeout ?? null,
        screenCalls: settings.screenCalls ?? false,
      },
      cdrRetentionMonths: settings.cdrRetentionMonths ?? DEFAULTS.cdrRetentionMonths,
      anumMaskAfterDays: settings.anumMaskAfterDays ?? null,
      rateLimitPerMinute: settings.rateLimitPerMinute ?? null,
      pool: {
        targetOverflow: settings.targetOverflow ?? DEFAULT_POOL_SIZING.targetOverflow,
        exhaustedShare: settings.poolExhaustedShare ?? DEFAULT_POOL_SIZING.exhaustedShare,
      },
      spam: {
        policy: settings.spamPolicy ?? DEFAULT_SPAM_SETTINGS.policy,
        threshold: settings.spamThreshold ?? DEFAULT_SPAM_SETTINGS.threshold,
      },
      contactEmail: settings.contactEmail ?? null,
    };
    if ((await this.store.findByName(name)) !== null) {
      throw new ValidationError('name', 'is already taken by another partner');
    }
    if ((await this.store.findByUsername(username!)) !== null) {
      throw new ValidationError('username', 'is already taken by another partner');
    }
    const partner = await this.store.insert(values);
    await this.notify(partner.id);
    return partner;
  }

  async update(name: string, input: PartnerSettingsInput): Promise<PartnerUpdate> {
    const current = await this.requireByName(name);
    const settings = parseUpdatePartnerSettings(input);
    const changes: Partial<PartnerValues> = {};

    // HA1 hashes the username together with the password, so neither can change alone.
    if (settings.username !== undefined || settings.password !== undefined) {
      if (settings.password === undefined) {
        throw new ValidationError('password', 'is required when the username changes');
      }
      const username = settings.username ?? current.digestUsername;
      Object.assign(changes, { digestUsername: username, ...this.ha1Of(username, settings.password) });
    }
    if (settings.signingSecret !== undefined) changes.signingSecret = settings.signingSecret;
    if (settings.allowIps !== undefined) changes.allowIps = settings.allowIps;
    const country = settings.country ?? current.country;
    if (settings.country !== undefined) changes.country = country;
    if (settings.timeZone !== undefined) changes.timeZone = settings.timeZone;
    if (
      settings.onExhausted !== undefined ||
      settings.fallbackNumber !== undefined ||
      settings.sessionLifetimeSeconds !== undefined ||
      settings.holdBackSeconds !== undefined
    ) {
      changes.dni = {
        ...current.dni,
        sessionTtlSeconds: settings.sessionLifetimeSeconds ?? current.dni.sessionTtlSeconds,
        holdBackSeconds: settings.holdBackSeconds ?? current.dni.holdBackSeconds,
        ...(settings.onExhausted === undefined ? {} : { onExhausted: settings.onExhausted }),
        ...(settings.fallbackNumber === undefined
          ? {}
          : { fallbackNumber: parseFallbackNumber(settings.fallbackNumber, country) }),
      };
    }
    if (settings.showFullAnum !== undefined) changes.showFullAnum = settings.showFullAnum;
    if (settings.ringTimeout !== undefined || settings.screenCalls !== undefined) {
      changes.calls = {
        ringTimeoutSeconds:
          settings.ringTimeout === undefined ? current.calls.ringTimeoutSeconds : settings.ringTimeout,
        screenCalls: settings.screenCalls ?? current.calls.screenCalls,
      };
    }
    if (settings.cdrRetentionMonths !== undefined) changes.cdrRetentionMonths = settings.cdrRetentionMonths;
    if (settings.anumMaskAfterDays !== undefined) changes.anumMaskAfterDays = settings.anumMaskAfterDays;
    if (settings.rateLimitPerMinute !== undefined) changes.rateLimitPerMinute = settings.rateLimitPerMinute;
    if (settings.targetOverflow !== undefined || settings.poolExhaustedShare !== undefined) {
      changes.pool = {
        targetOverflow: settings.targetOverflow ?? current.pool.targetOverflow,
        exhaustedShare: settings.poolExhaustedShare ?? current.pool.exhaustedShare,
      };
    }
    if (settings.spamPolicy !== undefined || settings.spamThreshold !== undefined) {
      changes.spam = {
        policy: settings.spamPolicy ?? current.spam.policy,
        threshold: settings.spamThreshold ?? current.spam.threshold,
      };
    }
    if (settings.contactEmail !== undefined) changes.contactEmail = settings.contactEmail;
    const changed = (Object.keys(SETTING_OPTIONS) as Array<keyof typeof SETTING_OPTIONS>)
      .filter((key) => settings[key] !== undefined)
      .map((key) => SETTING_OPTIONS[key]);
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

  /** The partner's own settings resource (docs/call-intelligence.md, Settings). */
  async ownSettings(partnerId: string): Promise<Partner> {
    const partner = await this.store.findById(partnerId);
    if (partner === null) throw new NotFoundError(`partner ${partnerId}`);
    return partner;
  }

  /**
   * A PUT of the partner's own settings: the call-intelligence fields, the spam policy and the pool
   * defaults sent change, the rest stay. The projections follow (the voice webhook reads recording
   * and spam settings from Redis, the replacement service the session lifetime and hold-back).
   */
  async updateOwnSettings(partnerId: string, input: Record<string, unknown>): Promise<Partner> {
    const current = await this.ownSettings(partnerId);
    const {
      spam_policy: policy,
      spam_threshold: threshold,
      session_lifetime_seconds: lifetime,
      hold_back_seconds: holdBack,
      ...intelligence
    } = input;
    const spam = parseOwnSpamSettings(current.spam, policy, threshold);
    const dni = {
      ...current.dni,
      ...(lifetime === undefined
        ? {}
        : { sessionTtlSeconds: parseSessionLifetime('session_lifetime_seconds', lifetime) }),
      ...(holdBack === undefined ? {} : { holdBackSeconds: parseHoldBack('hold_back_seconds', holdBack) }),
    };
    const partner = await this.store.update(current.id, {
      intelligence: applyCallIntelligenceInput(current.intelligence, intelligence, OWN_SETTINGS_FIELDS),
      spam,
      dni,
    });
    await this.notify(partner.id);
    return partner;
  }

  /** The operator's way to the same settings (partner:update's call-intelligence options, docs/operations.md). */
  async updateOwnSettingsByName(name: string, input: Record<string, unknown>): Promise<Partner> {
    return this.updateOwnSettings((await this.requireByName(name)).id, input);
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

  /** The partner named `name` (the advId), or a NotFoundError naming it. */
  async requireByName(name: string): Promise<Partner> {
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

/** The own-settings resource's fields beside the call-intelligence ones, read by the service itself. */
const OWN_SETTINGS_FIELDS = [
  'spam_policy',
  'spam_threshold',
  'session_lifetime_seconds',
  'hold_back_seconds',
];

/** The spam fields of the own-settings resource, as on the wire: a policy name and a score "0"–"100". */
function parseOwnSpamSettings(current: SpamSettings, policy: unknown, threshold: unknown): SpamSettings {
  const next = { ...current };
  if (policy !== undefined) {
    if (!isSpamPolicy(policy))
      throw new ValidationError('spam_policy', `must be one of ${SPAM_POLICIES.join(', ')}`);
    next.policy = policy;
  }
  if (threshold !== undefined) {
    const score = typeof threshold === 'string' && /^\d{1,3}$/.test(threshold) ? Number(threshold) : NaN;
    if (!(score >= 0 && score <= 100))
      throw new ValidationError('spam_threshold', 'must be a whole number from 0 to 100');
    next.threshold = score;
  }
  return next;
}

export function toAuthenticatedPartner(partner: Partner): AuthenticatedPartner {
  return {
    id: partner.id,
    name: partner.name,
    country: partner.country,
    timeZone: partner.timeZone,
    showFullAnum: partner.showFullAnum,
    rateLimitPerMinute: partner.rateLimitPerMinute,
    customFields: { customer: [...partner.customFields.customer], source: [...partner.customFields.source] },
  };
}
