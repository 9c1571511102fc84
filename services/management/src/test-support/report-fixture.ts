import { recordOf } from './bidding-setup';
import { startE2eEnvironment, type E2eEnvironment } from './e2e-environment';

export const REPORT_PARTNER = {
  advId: 'acme',
  username: 'acme-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const STATIC_NUMBERS = ['+4722000001-+4722000010'];

export interface FixtureCustomer {
  customerId: string;
  /** source name → { sourceId, destnr } */
  sources: Record<string, { sourceId: string; destnr: string }>;
}

/** A call as the switch reports it; `source` names a fixture source. */
export interface FixtureCall {
  source: string;
  /** UTC, ISO 8601. */
  start: string;
  duration: number;
  answered: 0 | 1;
  voicemail?: 0 | 1;
  recording?: string;
  anum?: string;
}

export interface ReportFixture {
  env: E2eEnvironment;
  addCustomer(fields: Record<string, string>, sourceNames: string[]): Promise<FixtureCustomer>;
  /** POST /telephony/cdrs, every record stored (throws otherwise). */
  ingest(customer: FixtureCustomer, calls: FixtureCall[]): Promise<void>;
}

let callCounter = 0;

/**
 * Management and replacement as deployed (HTTPS, digest, operator CLI) with one partner in
 * Europe/Oslo, static numbers, and a CPL model of 25.00 for answered calls over 10 s at any time,
 * so every answered call longer than 10 s is a lead.
 */
export async function startReportFixture(): Promise<ReportFixture> {
  const env = await startE2eEnvironment(REPORT_PARTNER);
  await env.operator('numbers:add', '--partner', REPORT_PARTNER.advId, '--kind', 'static', ...STATIC_NUMBERS);
  const model = await env.api.write('POST', '/pricing_models', {
    name: 'CPL always',
    type: '0',
    unique_caller_time: '0',
    conditions: JSON.stringify([
      {
        cost_per_lead: '25.00',
        min_duration: '10',
        from_time: '00:00',
        to_time: '24:00',
        weekdays: 'mon,tue,wed,thu,fri,sat,sun',
      },
    ]),
  });
  const pricingModelId = recordOf(model, 'pricing_models', 'pricing_model', 'json')
    .pricing_model_id as string;

  return {
    env,
    addCustomer: async (fields, sourceNames) => {
      const customer = await env.api.write('POST', '/customers', fields);
      if (customer.status !== 200) throw new Error(`customer: ${customer.text}`);
      const customerId = recordOf(customer, 'customers', 'customer', 'json').customer_id as string;
      const campaign = await env.api.write('POST', `/customers/${customerId}/campaigns`, {
        name: 'Always on',
        pricing_model_id: pricingModelId,
      });
      const campaignId = recordOf(campaign, 'campaigns', 'campaign', 'json').campaign_id as string;
      const sources: FixtureCustomer['sources'] = {};
      for (const name of sourceNames) {
        const source = await env.api.write('POST', '/sources', {
          customer_id: customerId,
          name,
          phonenr: `2${String(3_000_000 + Object.keys(sources).length + Number(customerId) * 10)}`,
          campaign_id: campaignId,
        });
        if (source.status !== 200) throw new Error(`source: ${source.text}`);
        const record = recordOf(source, 'sources', 'source', 'json');
        sources[name] = { sourceId: record.source_id as string, destnr: record.destnr as string };
      }
      return { customerId, sources };
    },
    ingest: async (customer, calls) => {
      const records = calls.map((call) => ({
        call_id: `report-call-${++callCounter}`,
        anum: call.anum ?? `+4798${String(100_000 + callCounter)}`,
        bnum: customer.sources[call.source]!.destnr,
        start: call.start,
        duration: call.duration,
        answered: call.answered,
        ...(call.voicemail === undefined ? {} : { voicemail: call.voicemail }),
        ...(call.recording === undefined ? {} : { recording: call.recording }),
      }));
      const answer = await env.ingest(records);
      const errors = answer.body.errors as unknown[] | undefined;
      if (answer.status !== 200 || (errors !== undefined && errors.length > 0))
        throw new Error(`ingest: ${answer.status} ${JSON.stringify(answer.body)}`);
    },
  };
}
