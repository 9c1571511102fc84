import { partnerKeys } from '@trackline/contracts';
import {
  E2E_TIMEOUT_MS,
  startE2eEnvironment,
  type E2eEnvironment,
  type JsonAnswer,
} from '../test-support/e2e-environment';

const PARTNER = {
  advId: 'seen',
  username: 'seen-api',
  password: 'correct horse',
  signingSecret: 'a-signing-secret-of-32-characters',
};
const POOL_NUMBERS = ['+4791000011', '+4791000012', '+4791000013'];

type Body = Record<string, unknown>;

// Customers reach management from visitor requests only when their values change (docs/redis-keys.md
// "Customer-seen stream"): both services as deployed, the consumer running, the partner API reading.
describe('customer-seen events end to end', () => {
  jest.setTimeout(E2E_TIMEOUT_MS);
  let env: E2eEnvironment;
  let stream: string;

  beforeAll(async () => {
    env = await startE2eEnvironment(PARTNER);
    await env.operator('numbers:add', '--partner', PARTNER.advId, '--kind', 'pool', ...POOL_NUMBERS);
    stream = partnerKeys(env.keyPrefix, PARTNER.advId).customerEvents;
  });

  afterAll(async () => {
    await env?.close();
  });

  async function requestNumbers(parameters: Record<string, string>, sessionId = ''): Promise<JsonAnswer> {
    const answer = await env.visit({
      numbers: '23 45 67 89',
      parameters,
      requestIpAddress: '203.0.113.0',
      sessionId,
    });
    expect(answer).toMatchObject({ status: 200, body: { success: true } });
    return answer;
  }

  /** The customer with `custnr` once it satisfies `ready`, through the partner API (the consumer runs behind it). */
  async function customerSeen(custnr: string, ready: (customer: Body) => boolean): Promise<Body | undefined> {
    let customer: Body | undefined;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      const answer = await env.api.read(`/customers?custnr=${encodeURIComponent(custnr)}`);
      customer = answer.status === 200 ? (answer.body.customers as Body[])[0] : undefined;
      if (customer !== undefined && ready(customer)) return customer;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return customer;
  }

  const streamLength = (): Promise<number> => env.redis.xlen(stream);

  it('sends a customer once for many sessions, and a changed name with the request that carries it', async () => {
    const dealer = { custnr: 'D-1', custname: 'Bil AS', custemail: 'bil@example.no' };
    await requestNumbers(dealer);
    const created = await customerSeen('D-1', (customer) => customer.name === 'Bil AS');
    expect(created).toMatchObject({ custnr: 'D-1', name: 'Bil AS', email: 'bil@example.no' });

    // Twenty more page views of the same dealer in new sessions: no event, so nothing to write.
    const before = await streamLength();
    for (let i = 0; i < 20; i++) await requestNumbers(dealer);
    expect(await streamLength()).toBe(before);

    // A changed name is on the stream when the response that carried it returns, and reaches the customer.
    await requestNumbers({ ...dealer, custname: 'Bil Oslo AS' });
    expect(await streamLength()).toBe(before + 1);
    expect(await customerSeen('D-1', (customer) => customer.name === 'Bil Oslo AS')).toMatchObject({
      customer_id: created!.customer_id,
      email: 'bil@example.no',
    });
  });

  it('recreates a customer deleted in management with the next request that names it', async () => {
    const dealer = { custnr: 'D-2', custname: 'Båt AS' };
    await requestNumbers(dealer);
    const first = await customerSeen('D-2', (customer) => customer.name === 'Båt AS');
    expect(first).toBeDefined();

    const deleted = await env.api.remove(`/customers/${String(first!.customer_id)}`);
    expect(deleted.status).toBe(200);
    expect((await env.api.read('/customers?custnr=D-2')).body.customers).toEqual([]);

    // The same values as before, in a new session: sent again because management forgot them.
    const before = await streamLength();
    await requestNumbers(dealer);
    expect(await streamLength()).toBe(before + 1);
    const again = await customerSeen('D-2', (customer) => customer.name === 'Båt AS');
    expect(again).toMatchObject({ custnr: 'D-2', name: 'Båt AS' });
    expect(again!.customer_id).not.toBe(first!.customer_id);
  });

  it('applies the page values again after the partner changed the customer through the API', async () => {
    await requestNumbers({ custnr: 'D-3', custname: 'Hus AS' });
    const seen = await customerSeen('D-3', (customer) => customer.name === 'Hus AS');
    const renamed = await env.api.write('PUT', `/customers/${String(seen!.customer_id)}`, {
      name: 'Hus Nordmann AS',
    });
    expect(renamed.status).toBe(200);
    await requestNumbers({ custnr: 'D-3', custname: 'Hus AS' });
    expect(await customerSeen('D-3', (customer) => customer.name === 'Hus AS')).toMatchObject({
      customer_id: seen!.customer_id,
    });
  });
});
