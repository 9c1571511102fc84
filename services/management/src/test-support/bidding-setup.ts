import type { ApiAnswer, Format, PartnerApi } from './partner-api';

/** One record of an answer, whatever the format: JSON `{plural: [record]}` or `{plural: record}`, XML `<plural><singular>`. */
export type WireRecord = Record<string, unknown>;

export interface BiddingSetupInput {
  custnr: string;
  /** National form, as a partner types it; the service answers +<digits>. */
  phonenr: string;
  costPerLead: string;
  /** Condition values other than cost_per_lead, as the partner sends them. */
  condition: { min_duration: string; from_time: string; to_time: string; weekdays: string };
}

export interface BiddingSetup {
  answers: { customer: ApiAnswer; pricingModel: ApiAnswer; campaign: ApiAnswer; source: ApiAnswer };
  customer: WireRecord;
  pricingModel: WireRecord;
  campaign: WireRecord;
  source: WireRecord;
  customerId: string;
  pricingModelId: string;
  campaignId: string;
  sourceId: string;
}

/**
 * The seed's call-bidding flow: customer → pricing model (CPL, conditions as JSON text) → campaign
 * using it → source attached to the campaign, every write urlencoded as the seed sends it.
 */
export async function createBiddingSetup(
  api: PartnerApi,
  format: Format,
  input: BiddingSetupInput,
): Promise<BiddingSetup> {
  const customer = await ok(
    api.write('POST', '/customers', { name: 'Kari Bil AS', custnr: input.custnr }, format),
  );
  const customerId = field(recordOf(customer, 'customers', 'customer', format), 'customer_id');

  const conditions = JSON.stringify([{ cost_per_lead: input.costPerLead, ...input.condition }]);
  const pricingModel = await ok(
    api.write(
      'POST',
      '/pricing_models',
      { name: 'CPL weekdays', type: '0', unique_caller_time: '0', conditions },
      format,
    ),
  );
  const pricingModelId = field(
    recordOf(pricingModel, 'pricing_models', 'pricing_model', format),
    'pricing_model_id',
  );

  const campaign = await ok(
    api.write(
      'POST',
      `/customers/${customerId}/campaigns`,
      { name: 'Spring sale', pricing_model_id: pricingModelId },
      format,
    ),
  );
  const campaignId = field(recordOf(campaign, 'campaigns', 'campaign', format), 'campaign_id');

  const source = await ok(
    api.write(
      'POST',
      '/sources',
      {
        customer_id: customerId,
        name: 'Finn ad',
        phonenr: input.phonenr,
        media: 'finn.no',
        campaign_id: campaignId,
      },
      format,
    ),
  );
  const sourceId = field(recordOf(source, 'sources', 'source', format), 'source_id');

  return {
    answers: { customer, pricingModel, campaign, source },
    customer: recordOf(customer, 'customers', 'customer', format),
    pricingModel: recordOf(pricingModel, 'pricing_models', 'pricing_model', format),
    campaign: recordOf(campaign, 'campaigns', 'campaign', format),
    source: recordOf(source, 'sources', 'source', format),
    customerId,
    pricingModelId,
    campaignId,
    sourceId,
  };
}

/**
 * The single record of an answer. JSON wraps an array of one (a created campaign: the object
 * itself); XML has the plural root with one singular element.
 */
export function recordOf(answer: ApiAnswer, plural: string, singular: string, format: Format): WireRecord {
  const wrapped = answer.body[plural];
  if (format === 'xml') {
    const element = (wrapped as Record<string, unknown> | undefined)?.[singular];
    if (element === undefined || Array.isArray(element))
      throw new Error(`expected one <${singular}>: ${answer.text}`);
    return element as WireRecord;
  }
  if (Array.isArray(wrapped)) {
    if (wrapped.length !== 1) throw new Error(`expected one ${plural} record: ${answer.text}`);
    return wrapped[0] as WireRecord;
  }
  if (wrapped === null || typeof wrapped !== 'object') throw new Error(`no ${plural} in ${answer.text}`);
  return wrapped as WireRecord;
}

function field(record: WireRecord, name: string): string {
  const value = record[name];
  if (typeof value !== 'string' || value === '')
    throw new Error(`${name} missing in ${JSON.stringify(record)}`);
  return value;
}

async function ok(pending: Promise<ApiAnswer>): Promise<ApiAnswer> {
  const answer = await pending;
  if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status}: ${answer.text}`);
  return answer;
}
