import { createLogger } from '@trackline/platform';
import type { DataSource } from 'typeorm';
import { createManagementRoutes, createManagementServices } from '../src/composition/management-services';
import { createManagementStores } from '../src/composition/management-stores';
import type { ApiRecord, ApiResponse } from '../src/http/api-response';
import type { AuthenticatedPartner, HttpMethod, RouteDefinition } from '../src/http/route-definition';

const BENCH_LOG = createLogger({ service: 'bench-fixtures', level: 'silent' });

export const BENCH_USERNAME = 'bench-api';
export const BENCH_PASSWORD = 'bench password, loopback only';
const SOURCES_PER_CUSTOMER = 4;
const FIRST_NUMBER = 4722100000;
const FIRST_POOL_NUMBER = 4722200000;
const POOL_NUMBERS = 20;

/** Where the features a call sets off go: a webhook receiver and a GA4 stream (docs/benchmarks.md). */
export interface BenchFeatures {
  webhookUrl: string;
  ga4: { measurementId: string; apiSecret: string };
}

/** A static number of the bench partner and what a call to it resolves to. */
export interface BenchLine {
  bnum: string;
  customerId: string;
  custnr: string;
  sourceId: string;
  campaignId: string;
}

export interface BenchFixture {
  partnerId: string;
  /** The partner's pool numbers: the bench's DNI calls go to them, with an attribution in Redis. */
  poolNumbers: string[];
  /** The customer with 1,000,000 records; lines[0..3] are its sources. */
  mainCustomerId: string;
  lines: BenchLine[];
}

/**
 * The bench partner as the operator and the partner set it up (docs/operations.md, The operator CLI;
 * docs/partner-api.md), through the services and the composed routes: static and pool numbers, customers,
 * one CPL pricing model with a unique-caller window, a campaign per customer, sources on the campaigns
 * that e-mail missed calls, a webhook taking every event and a GA4 integration: every feature a call
 * sets off is on.
 */
export async function seedBenchPartner(
  dataSource: DataSource,
  customers: number,
  now: Date,
  /** Without them, the partner has no webhook and no GA4 integration (a bench without the service). */
  features?: BenchFeatures,
): Promise<BenchFixture> {
  const services = createManagementServices(createManagementStores(dataSource), {
    digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
    greetingRecordNumber: '+4722000000',
    webhooks: { insecureHosts: features === undefined ? [] : [new URL(features.webhookUrl).hostname] },
  });
  const routes = createManagementRoutes(services);
  const created = await services.partners.create({
    name: 'bench',
    username: BENCH_USERNAME,
    password: BENCH_PASSWORD,
    signingSecret: 'bench-signing-secret',
    allowIps: ['127.0.0.1'],
  });
  const numbers = Array.from(
    { length: customers * SOURCES_PER_CUSTOMER },
    (_, index) => `+${FIRST_NUMBER + index}`,
  );
  await services.numbers.add('bench', 'static', numbers, now);
  const poolNumbers = Array.from({ length: POOL_NUMBERS }, (_, index) => `+${FIRST_POOL_NUMBER + index}`);
  await services.numbers.add('bench', 'pool', poolNumbers, now);
  const partner = (await services.partners.findForDigest(BENCH_USERNAME))!.partner;
  const call = (method: HttpMethod, path: string, body: Record<string, string>, params = {}) =>
    handle(routes, partner, now, method, path, body, params);

  const pricingModelId = only(
    await call('POST', '/pricing_models', {
      name: 'CPL',
      type: '0',
      unique_caller_time: '86400',
      conditions: JSON.stringify([
        {
          cost_per_lead: '25.00',
          min_duration: '30',
          from_time: '08:00',
          to_time: '18:00',
          weekdays: 'mon,tue,wed,thu,fri',
        },
        {
          cost_per_lead: '5.50',
          min_duration: '10',
          from_time: '00:00',
          to_time: '24:00',
          weekdays: 'mon,tue,wed,thu,fri,sat,sun',
        },
      ]),
    }),
  ).pricing_model_id as string;

  const lines: BenchLine[] = [];
  for (let c = 0; c < customers; c++) {
    const custnr = `B-${c + 1}`;
    const customerId = only(await call('POST', '/customers', { name: `Bench customer ${c + 1}`, custnr }))
      .customer_id as string;
    const campaign = await call(
      'POST',
      '/customers/:customerId/campaigns',
      { name: 'Always on', pricing_model_id: pricingModelId },
      { customerId },
    );
    if (campaign.kind !== 'record') throw new Error(`campaign: unexpected ${campaign.kind} response`);
    const campaignId = campaign.record.campaign_id as string;
    for (let s = 0; s < SOURCES_PER_CUSTOMER; s++) {
      const source = only(
        await call('POST', '/sources', {
          customer_id: customerId,
          name: `Ad ${s + 1}`,
          phonenr: `9${String(1_000_000 + c * 10 + s)}`,
          campaign_id: campaignId,
          media: 'web',
          email: `ads-${c + 1}-${s + 1}@bench.example`,
          notify_on_missed_call: '1',
        }),
      );
      lines.push({
        bnum: source.destnr as string,
        customerId,
        custnr,
        sourceId: source.source_id as string,
        campaignId,
      });
    }
  }
  if (features !== undefined) {
    only(await call('POST', '/webhooks', { url: features.webhookUrl }));
    only(
      await call('PUT', '/integrations/ga4', {
        measurement_id: features.ga4.measurementId,
        api_secret: features.ga4.apiSecret,
      }),
    );
  }
  return { partnerId: created.id, poolNumbers, mainCustomerId: lines[0]!.customerId, lines };
}

function handle(
  routes: RouteDefinition[],
  partner: AuthenticatedPartner,
  now: Date,
  method: HttpMethod,
  path: string,
  body: Record<string, string>,
  params: Record<string, string>,
): Promise<ApiResponse> {
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  if (route === undefined) throw new Error(`no route ${method} ${path}`);
  return route.handle({ partner, params, query: {}, body, headers: {}, now, log: BENCH_LOG });
}

function only(response: ApiResponse): ApiRecord {
  if (response.kind !== 'records' || response.records.length !== 1)
    throw new Error(`expected one record, got ${JSON.stringify(response)}`);
  return response.records[0]!;
}
