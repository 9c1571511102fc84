import { ValidationError } from '@trackline/domain';
import { Parsed, Text, requiredOn, type DtoMode } from '../validation/field-rules';
import { checkPageParameter, parsePaging, type Paging } from '../validation/paging';
import { validateDto } from '../validation/validate-dto';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookChanges,
  type WebhookEventType,
  type WebhookState,
  type WebhookValues,
} from './webhook';
import { WEBHOOK_URL_MAX_LENGTH } from './webhook-url';

function webhookDto(mode: DtoMode) {
  class WebhookDto {
    // The URL's own rules (https, public address) are checked by the service, which resolves it.
    @Text(WEBHOOK_URL_MAX_LENGTH, requiredOn(mode))
    url?: string;

    @Parsed('optional', (value) => parseEvents('events', value))
    events?: string;

    @Parsed('optional', (value) => parseState('state', value))
    state?: string;
  }
  return WebhookDto;
}

/** GET /webhooks/:id/deliveries: the page, and nothing else. */
export class WebhookDeliveriesQueryDto {
  @Parsed('optional', checkPageParameter('page'))
  page?: string;

  @Parsed('optional', checkPageParameter('pagesize'))
  pagesize?: string;
}

export function parseDeliveriesQuery(query: Record<string, string>): Paging {
  return parsePaging(validateDto(WebhookDeliveriesQueryDto, query, 'is not a known query parameter'));
}

/** POST /webhooks: `url` is required; `events` defaults to every event, `state` to 0 (active). */
export const CreateWebhookDto = webhookDto('create');
/** PUT /webhooks/:id: keys left out keep their value. */
export const UpdateWebhookDto = webhookDto('update');

export function parseCreateWebhook(body: Record<string, unknown>): WebhookValues {
  const dto = validateDto(CreateWebhookDto, body);
  return {
    url: dto.url!,
    events: dto.events === undefined ? [...WEBHOOK_EVENT_TYPES] : parseEvents('events', dto.events),
    state: dto.state === undefined ? '0' : parseState('state', dto.state),
  };
}

export function parseUpdateWebhook(body: Record<string, unknown>): WebhookChanges {
  const dto = validateDto(UpdateWebhookDto, body);
  const changes: WebhookChanges = {};
  if (dto.url !== undefined) changes.url = dto.url;
  if (dto.events !== undefined) changes.events = parseEvents('events', dto.events);
  if (dto.state !== undefined) changes.state = parseState('state', dto.state);
  return changes;
}

/**
 * Comma-separated event types from the catalogue, at least one, none twice; returned in catalogue
 * order so the stored and shown list does not depend on how it was typed.
 */
export function parseEvents(field: string, value: unknown): WebhookEventType[] {
  if (typeof value !== 'string') throw new ValidationError(field, 'must be a string');
  const names = value.split(',').map((name) => name.trim());
  const allowed = `one or more of ${WEBHOOK_EVENT_TYPES.join(', ')}, separated by commas`;
  if (names.some((name) => name === '')) throw new ValidationError(field, `must be ${allowed}`);
  for (const name of names) {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(name)) {
      throw new ValidationError(field, `has unknown event type "${name}"; must be ${allowed}`);
    }
  }
  if (new Set(names).size !== names.length) throw new ValidationError(field, 'must not name an event twice');
  return WEBHOOK_EVENT_TYPES.filter((type) => names.includes(type));
}

export function parseState(field: string, value: unknown): WebhookState {
  if (value === '0' || value === '1') return value;
  throw new ValidationError(field, 'must be "0" (active) or "1" (paused)');
}
