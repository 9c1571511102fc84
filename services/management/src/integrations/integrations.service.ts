import { NotFoundError } from '@trackline/domain';
import type {
  Ga4Integration,
  GoogleAdsIntegration,
  IntegrationKind,
  PartnerIntegration,
} from './integration';
import { parseGa4Put, parseGoogleAdsPut } from './integrations.dto';
import type { IntegrationsStore } from './integrations.store';

/**
 * GET/PUT/DELETE /integrations/google_ads and /integrations/ga4 (docs/conversions.md, Set-up): a
 * setting of the partner's account rather than a record, so PUT sets it up the first time.
 */
export class IntegrationsService {
  constructor(private readonly store: IntegrationsStore) {}

  async get(partnerId: string, kind: IntegrationKind): Promise<PartnerIntegration> {
    const found = await this.store.find(partnerId, kind);
    if (found === null) throw notSetUp(kind);
    return found;
  }

  async put(
    partnerId: string,
    kind: IntegrationKind,
    body: Record<string, unknown>,
    now: Date,
  ): Promise<PartnerIntegration> {
    const current = await this.store.find(partnerId, kind);
    const integration =
      kind === 'google_ads'
        ? parseGoogleAdsPut(body, current as GoogleAdsIntegration | null, now)
        : parseGa4Put(body, current as Ga4Integration | null, now);
    await this.store.save(partnerId, integration);
    return integration;
  }

  /** Conversions still queued for it go with it (docs/conversions.md, Delivery). */
  async remove(partnerId: string, kind: IntegrationKind): Promise<PartnerIntegration> {
    const current = await this.get(partnerId, kind);
    if (!(await this.store.remove(partnerId, kind))) throw notSetUp(kind);
    return current;
  }
}

function notSetUp(kind: IntegrationKind): NotFoundError {
  return new NotFoundError(`integration ${kind} (not set up)`);
}
