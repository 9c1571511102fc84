import { ForbiddenError, parsePricingConditions } from '@trackline/domain';
import { createTestDatabase, type TestDatabase } from '@trackline/test-harness';
import type { DataSource } from 'typeorm';
import { createManagementDataSource } from '../composition/management-data-source';
import type { CampaignsService } from './campaigns.service';
import { insertTestPartners } from '../test-support/test-partners';
import { createManagementServices } from '../composition/management-services';
import { createManagementStores } from '../composition/management-stores';
import { storesOn } from '../composition/stores-on-manager';

// The sources table belongs to the sources feature; rows are written with plain SQL here so this
// test pins only what campaigns read from it (partner_id, campaign_id, id, name).
describe('TypeormSourcesStore', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let service: CampaignsService;
  let acme: string;
  let beta: string;
  let customer: string;
  let campaign: string;
  let otherCampaign: string;
  let nextNumber = 1;

  async function addSource(
    partnerId: string,
    campaignId: string,
    name: string,
    status = 'active',
  ): Promise<string> {
    const destnr = `+4722${String(nextNumber++).padStart(6, '0')}`;
    await dataSource.query(
      `INSERT INTO tracking_numbers (partner_id, e164, kind, added_at) VALUES ($1, $2, 'static', now())`,
      [partnerId, destnr],
    );
    const rows = (await dataSource.query(
      `INSERT INTO sources (partner_id, customer_id, name, phonenr, destnr, campaign_id, status, activated_at)
       VALUES ($1, $2, $3, '+4791234567', $4, $5, $6, now()) RETURNING id`,
      [partnerId, customer, name, destnr, campaignId, status],
    )) as Array<{ id: string }>;
    return rows[0]!.id;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createManagementDataSource(database.url);
    await dataSource.initialize();
    const { customers, pricingModels } = storesOn(dataSource.manager);
    // The service as the composition root builds it.
    service = createManagementServices(createManagementStores(dataSource), {
      digest: { realm: 'Trackline', nonceSecret: '', nonceTtlSeconds: 300 },
      greetingRecordNumber: '+4722000000',
    }).campaigns;
    [acme, beta] = await insertTestPartners(dataSource.manager, 'acme', 'beta');
    customer = (
      await customers.insert(acme, {
        name: 'Kari AS',
        custnr: 'K-1',
        corporateid: null,
        email: null,
        dncsClassName: null,
        receiveMonthlyReport: false,
        serviceCallerId: false,
        customFields: {},
      })
    ).id;
    const model = await pricingModels.insert(acme, {
      name: 'Standard',
      type: '0',
      uniqueCallerSeconds: 0,
      conditions: parsePricingConditions('conditions', [
        { cost_per_lead: '1.00', min_duration: '0', from_time: '00:00', to_time: '24:00', weekdays: 'mon' },
      ]),
    });
    const values = {
      pricingModelId: model.id,
      partnerCampaignId: null,
      email: null,
      smsnumber: null,
      vmGreetingId: null,
      notifyOnMissedCall: false,
      notifyOnNewVoicemail: false,
      vmDivertAll: false,
      vmDivertBusy: false,
      vmDivertNoanswer: false,
    };
    campaign = (await service.create(acme, customer, { ...values, name: 'Spring' })).campaign.id;
    otherCampaign = (await service.create(acme, customer, { ...values, name: 'Empty' })).campaign.id;
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('lists open and closed sources per campaign, only the partner’s', async () => {
    const open = await addSource(acme, campaign, 'Finn ad');
    const closed = await addSource(acme, campaign, 'Old flyer', 'closed');
    const reader = storesOn(dataSource.manager).sources;
    const attached = await reader.sourcesAttached(acme, [campaign, otherCampaign]);
    expect(attached.get(campaign)).toEqual([
      { id: open, name: 'Finn ad' },
      { id: closed, name: 'Old flyer' },
    ]);
    expect(attached.has(otherCampaign)).toBe(false);
    expect((await reader.sourcesAttached(beta, [campaign])).size).toBe(0);
    expect((await reader.sourcesAttached(acme, [])).size).toBe(0);

    const view = await service.get(acme, customer, campaign);
    expect(view.sources.map((source) => source.name)).toEqual(['Finn ad', 'Old flyer']);
  });

  it('refuses to delete a campaign with a source attached, deletes one without', async () => {
    await expect(service.delete(acme, customer, campaign)).rejects.toBeInstanceOf(ForbiddenError);
    expect((await service.get(acme, customer, campaign)).campaign.id).toBe(campaign);
    await service.delete(acme, customer, otherCampaign);
    await expect(service.get(acme, customer, otherCampaign)).rejects.toThrow('not found');
  });
});
