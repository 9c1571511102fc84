import { GoogleAdsSimulator } from './google-ads-simulator';

interface GoogleAdsFailure {
  '@type': string;
  errors: { errorCode: Record<string, string>; location: { fieldPathElements: unknown[] } }[];
}

interface UploadAnswer {
  results?: unknown[];
  partialFailureError?: { details: GoogleAdsFailure[] };
  error?: { status: string; details: GoogleAdsFailure[] };
}

const account = {
  clientId: 'client.apps.googleusercontent.com',
  clientSecret: 'client-secret',
  refreshToken: '1//refresh',
  developerToken: 'dev-token',
  managerCustomerId: '1112223333',
  customerId: '4445556666',
  conversionActionIds: ['777'],
  clickIds: ['EAIaIQobChMI-known_1', 'gbraid-known'],
};

describe('the Google Ads API simulator', () => {
  const ads = new GoogleAdsSimulator(account);
  beforeAll(() => ads.start());
  afterAll(() => ads.stop());

  async function token(overrides: Record<string, string> = {}): Promise<Response> {
    return fetch(`${ads.baseUrl}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: account.clientId,
        client_secret: account.clientSecret,
        refresh_token: account.refreshToken,
        ...overrides,
      }).toString(),
    });
  }

  async function upload(
    body: unknown,
    headers: Record<string, string> = {},
    customerId = account.customerId,
  ) {
    const { access_token } = (await (await token()).json()) as { access_token: string };
    const response = await fetch(`${ads.baseUrl}/v21/customers/${customerId}:uploadClickConversions`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${access_token}`,
        'developer-token': account.developerToken,
        'login-customer-id': account.managerCustomerId,
        ...headers,
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as UploadAnswer };
  }

  const conversion = (
    orderId: string,
    click: Record<string, string> = { gclid: 'EAIaIQobChMI-known_1' },
  ) => ({
    ...click,
    conversionAction: ads.conversionAction(),
    conversionDateTime: '2026-11-25 10:15:00+01:00',
    conversionValue: 250,
    currencyCode: 'NOK',
    orderId,
  });

  it('exchanges a refresh token for a bearer token and refuses a wrong client or grant', async () => {
    const granted = await token();
    expect(granted.status).toBe(200);
    expect(await granted.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3599 });
    const wrongClient = await token({ client_secret: 'nope' });
    expect([wrongClient.status, ((await wrongClient.json()) as { error: string }).error]).toEqual([
      401,
      'invalid_client',
    ]);
    const wrongGrant = await token({ refresh_token: 'nope' });
    expect([wrongGrant.status, ((await wrongGrant.json()) as { error: string }).error]).toEqual([
      400,
      'invalid_grant',
    ]);
  });

  it('accepts the good conversions and reports the others at their index (partial failure)', async () => {
    const { status, body } = await upload({
      partialFailure: true,
      conversions: [
        conversion('call-1:call'),
        conversion('call-2:call', { gclid: 'EAIaIQobChMI-unknown' }),
        conversion('call-3:call', { gbraid: 'gbraid-known' }),
        { ...conversion('call-4:call'), conversionDateTime: '2026-11-25T10:15:00Z' },
      ],
    });
    expect(status).toBe(200);
    expect(body.results).toEqual([
      {
        gclid: 'EAIaIQobChMI-known_1',
        conversionAction: ads.conversionAction(),
        conversionDateTime: '2026-11-25 10:15:00+01:00',
      },
      {},
      {
        gbraid: 'gbraid-known',
        conversionAction: ads.conversionAction(),
        conversionDateTime: '2026-11-25 10:15:00+01:00',
      },
      {},
    ]);
    const failure = body.partialFailureError!.details[0]!;
    expect(failure['@type']).toBe('type.googleapis.com/google.ads.googleads.v21.errors.GoogleAdsFailure');
    expect(failure.errors.map((e) => [e.errorCode, e.location.fieldPathElements])).toEqual([
      [
        { conversionUploadError: 'CLICK_NOT_FOUND' },
        [{ fieldName: 'conversions', index: 1 }, { fieldName: 'gclid' }],
      ],
      [
        { dateError: 'INVALID_FIELD_VALUES_IN_DATE_TIME' },
        [{ fieldName: 'conversions', index: 3 }, { fieldName: 'conversionDateTime' }],
      ],
    ]);
    expect(ads.accepted.map((entry) => entry.conversion.orderId)).toEqual(['call-1:call', 'call-3:call']);
  });

  it('counts an order id once: the repeat is ORDER_ID_ALREADY_IN_USE', async () => {
    const { body } = await upload({ partialFailure: true, conversions: [conversion('call-1:call')] });
    expect(body.partialFailureError!.details[0]!.errors[0]!.errorCode).toEqual({
      conversionUploadError: 'ORDER_ID_ALREADY_IN_USE',
    });
    expect(ads.acceptedWithOrderId('call-1:call')).toHaveLength(1);
  });

  it('refuses a hashed identifier that is not a SHA-256 hash and both gbraid and wbraid', async () => {
    const { body } = await upload({
      partialFailure: true,
      conversions: [
        { ...conversion('x1', {}), userIdentifiers: [{ hashedPhoneNumber: '+4791234567' }] },
        conversion('x2', { gbraid: 'gbraid-known', wbraid: 'w' }),
      ],
    });
    expect(
      body.partialFailureError!.details[0]!.errors.map((e) => e.errorCode.conversionUploadError),
    ).toEqual(['INVALID_USER_IDENTIFIER', 'GBRAID_WBRAID_BOTH_SET']);
  });

  it.each([
    ['no bearer token', { Authorization: 'Bearer ya29.unknown' }, 401, 'UNAUTHENTICATED'],
    ['a wrong developer token', { 'developer-token': 'other' }, 401, 'UNAUTHENTICATED'],
    [
      'no login-customer-id of the manager',
      { 'login-customer-id': account.customerId },
      403,
      'PERMISSION_DENIED',
    ],
  ])('answers an RPC error for %s and accepts nothing', async (_case, headers, status, code) => {
    const before = ads.accepted.length;
    const answer = await upload({ partialFailure: true, conversions: [conversion('rpc')] }, headers);
    expect([answer.status, answer.body.error!.status]).toEqual([status, code]);
    expect(ads.accepted.length).toBe(before);
  });

  it('requires partialFailure true', async () => {
    const answer = await upload({ conversions: [conversion('pf')] });
    expect(answer.status).toBe(400);
    expect(answer.body.error!.details[0]!.errors[0]!.errorCode).toEqual({
      partialFailureError: 'PARTIAL_FAILURE_MODE_REQUIRED',
    });
  });
});
