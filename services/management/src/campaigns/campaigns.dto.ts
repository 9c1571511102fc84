import { normalizePhoneNumber, parseFlag, ValidationError, type CountryCode } from '@trackline/domain';
import { clearable, Email, Flag, Parsed, requiredOn, Text, type DtoMode } from '../validation/field-rules';
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

function campaignDto(mode: DtoMode) {
  class CampaignDto {
    @Text(CAMPAIGN_LIMITS.name, requiredOn(mode))
    name?: string;

    @Text(CAMPAIGN_LIMITS.reference, requiredOn(mode))
    pricing_model_id?: string;

    @Text(CAMPAIGN_LIMITS.partnerCampaignId, 'clearable')
    partner_campaign_id?: string | null;

    @Email(CAMPAIGN_LIMITS.email, 'clearable')
    email?: string | null;

    @Text(CAMPAIGN_LIMITS.smsnumber, 'clearable')
    smsnumber?: string | null;

    @Text(CAMPAIGN_LIMITS.reference, 'clearable')
    vm_greeting_id?: string | null;

    @Flag('optional')
    notify_on_missed_call?: string;

    @Flag('optional')
    notify_on_new_voicemail?: string;

    @Flag('optional')
    vm_divert_all?: string;

    @Flag('optional')
    vm_divert_busy?: string;

    @Flag('optional')
    vm_divert_noanswer?: string;
  }
  return CampaignDto;
}

/** POST /customers/:id/campaigns: name and pricing_model_id are required; a new campaign is active. */
export const CreateCampaignDto = campaignDto('create');

/** PUT: every key may be left out and then keeps its value; `state` is settable here only. */
export class UpdateCampaignDto extends campaignDto('update') {
  @Parsed('optional', (value) => parseCampaignState('state', value))
  state?: string;
}

type CampaignDto = InstanceType<typeof CreateCampaignDto>;

export function parseCreateCampaign(body: Record<string, unknown>, country: CountryCode): CampaignValues {
  const changes = toChanges(validateDto(CreateCampaignDto, body), country);
  return {
    name: changes.name!,
    pricingModelId: changes.pricingModelId!,
    partnerCampaignId: changes.partnerCampaignId ?? null,
    email: changes.email ?? null,
    smsnumber: changes.smsnumber ?? null,
    vmGreetingId: changes.vmGreetingId ?? null,
    notifyOnMissedCall: changes.notifyOnMissedCall ?? false,
    notifyOnNewVoicemail: changes.notifyOnNewVoicemail ?? false,
    vmDivertAll: changes.vmDivertAll ?? false,
    vmDivertBusy: changes.vmDivertBusy ?? false,
    vmDivertNoanswer: changes.vmDivertNoanswer ?? false,
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
  if (dto.email !== undefined) changes.email = clearable(dto.email);
  if (dto.smsnumber !== undefined) {
    const raw = clearable(dto.smsnumber);
    changes.smsnumber = raw === null ? null : normalizePhoneNumber('smsnumber', raw, country);
  }
  if (dto.vm_greeting_id !== undefined) changes.vmGreetingId = clearable(dto.vm_greeting_id);
  if (dto.notify_on_missed_call !== undefined)
    changes.notifyOnMissedCall = parseFlag('notify_on_missed_call', dto.notify_on_missed_call);
  if (dto.notify_on_new_voicemail !== undefined)
    changes.notifyOnNewVoicemail = parseFlag('notify_on_new_voicemail', dto.notify_on_new_voicemail);
  if (dto.vm_divert_all !== undefined) changes.vmDivertAll = parseFlag('vm_divert_all', dto.vm_divert_all);
  if (dto.vm_divert_busy !== undefined)
    changes.vmDivertBusy = parseFlag('vm_divert_busy', dto.vm_divert_busy);
  if (dto.vm_divert_noanswer !== undefined)
    changes.vmDivertNoanswer = parseFlag('vm_divert_noanswer', dto.vm_divert_noanswer);
  return changes;
}
