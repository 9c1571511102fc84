import { formatUtcTimestamp, renderFlag } from '@trackline/domain';
import type { ApiRecord, ResourceNames } from '../http/api-response';
import type { PartnerIntegration } from './integration';

export const INTEGRATION_NAMES: ResourceNames = { plural: 'integrations', singular: 'integration' };

/**
 * A secret as the API shows it: never whole. The last four characters of a long one help the
 * partner tell which credential is set; a short one shows nothing of itself.
 */
export function maskSecret(secret: string): string {
  return secret.length >= 16 ? `****${secret.slice(-4)}` : '****';
}

/** The integration as GET and PUT answer it (docs/conversions.md, Set-up). */
export function toIntegrationRecord(integration: PartnerIntegration): ApiRecord {
  const common = { integration: integration.kind, state: integration.paused ? '1' : '0' };
  if (integration.kind === 'ga4')
    return {
      ...common,
      measurement_id: integration.measurementId,
      api_secret: maskSecret(integration.secrets.apiSecret),
      modified: formatUtcTimestamp(integration.modified),
    };
  return {
    ...common,
    customer_id: integration.customerId,
    login_customer_id: integration.loginCustomerId,
    conversion_action_id: integration.conversionActionId,
    outcome_conversion_action_id: integration.outcomeConversionActionId,
    call_min_duration: String(integration.callMinDuration),
    outcome_statuses: integration.outcomeStatuses.join(','),
    enhanced_conversions: renderFlag(integration.enhancedConversions),
    oauth_client_id: integration.oauthClientId,
    oauth_client_secret: maskSecret(integration.secrets.oauthClientSecret),
    refresh_token: maskSecret(integration.secrets.refreshToken),
    developer_token: maskSecret(integration.secrets.developerToken),
    modified: formatUtcTimestamp(integration.modified),
  };
}
