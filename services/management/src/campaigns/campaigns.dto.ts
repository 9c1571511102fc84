import { ValidationError, type CountryCode } from '@trackline/domain';
import {
  notificationSettingsDto,
  toNotificationSettingsChanges,
  withNotificationDefaults,
} from '../notifications/notification-settings.dto';
import { clearable, Parsed, requiredOn, Text, UpdateOnly, type DtoMode } from '../validation/field-rules';
import { validateDto } from '../validation/validate-dto';
import { CAMPAIGN_STATES, type CampaignChanges, type CampaignState, type CampaignValues } from './campaign';

export const CAMPAIGN_LIMITS = {
  name: 100,
  partnerCampaignId: 45,
  email: 150,
  /** Raw input; what is stored is its E.164 form. */
  smsnumber: 40,
  /** Long enough for any UUID or decimal id; what it names is checked by the service. */
  reference: 40,
} as const;

export function parseCampaignState(field: string, value: unknown): CampaignState {
  if (typeof value === 'string' && (CAMPAIGN_STATES as readonly string[]).includes(value))
    return value as CampaignState;
  throw new ValidationError(field, 'must be "0" (active), "1" (paused) or "2" (closed)');
}

const CAMPAIGN_NOTIFICATION_LIMITS = {
  email: CAMPAIGN_LIMITS.email,
  smsnumber: CAMPAIGN_LIMITS.smsnumber,
  greetingId: CAMPAIGN_LIMITS.reference,
};

function campaignDto(mode: DtoMode) {
  class CampaignDto extends notificationSettingsDto(CAMPAIGN_NOTIFICATION_LIMITS) {
    @Text(CAMPAIGN_LIMITS.name, requiredOn(mode))
    name?: string;

    @Text(CAMPAIGN_LIMITS.reference, requiredOn(mode))
    pricing_model_id?: string;

    @Text(CAMPAIGN_LIMITS.partnerCampaignId, 'clearable')
    partner_campaign_id?: string | null;

    @UpdateOnly(mode, Parsed('optional', (value) => parseCampaignState('state', value)))
    state?: string;
  }
  return CampaignDto;
}

/** POST /customers/:id/campaigns: name and pricing_model_id are required; a new campaign is active. */
export const CreateCampaignDto = campaignDto('create');

/** PUT: every key may be left out and then keeps its value; `state` is settable here only. */
export const UpdateCampaignDto = campaignDto('update');

type CampaignDto = InstanceType<typeof CreateCampaignDto>;

export function parseCreateCampaign(body: Record<string, unknown>, country: CountryCode): CampaignValues {
  const changes = toChanges(validateDto(CreateCampaignDto, body), country);
  return {
    name: changes.name!,
    pricingModelId: changes.pricingModelId!,
    partnerCampaignId: changes.partnerCampaignId ?? null,
    ...withNotificationDefaults(changes),
  };
}

export function parseUpdateCampaign(body: Record<string, unknown>, country: CountryCode): CampaignChanges {
  const dto = validateDto(UpdateCampaignDto, body);
  const changes = toChanges(dto, country);
  if (dto.state !== undefined) changes.state = parseCampaignState('state', dto.state);
  return changes;
}

function toChanges(dto: CampaignDto, country: CountryCode): CampaignChanges {
  const changes: CampaignChanges = {};
  if (dto.name !== undefined) changes.name = dto.name;
  if (dto.pricing_model_id !== undefined) changes.pricingModelId = dto.pricing_model_id;
  if (dto.partner_campaign_id !== undefined) changes.partnerCampaignId = clearable(dto.partner_campaign_id);
  Object.assign(changes, toNotificationSettingsChanges(dto, country));
  return changes;
}
