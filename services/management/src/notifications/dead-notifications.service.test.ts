import { NotFoundError, ValidationError } from '@trackline/domain';
import { DeadNotificationsService } from './dead-notifications.service';
import type { DeadNotificationFilter, DeadNotificationStore } from './dead-notifications.store';

class FakeDeadNotificationStore implements DeadNotificationStore {
  readonly calls: Array<{ filter: DeadNotificationFilter; now: Date }> = [];

  async partnerIdByName(name: string): Promise<string | null> {
    return name === 'acme' ? '7' : null;
  }

  async requeueDead(filter: DeadNotificationFilter, now: Date): Promise<number> {
    this.calls.push({ filter, now });
    return 3;
  }
}

describe('DeadNotificationsService', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  let store: FakeDeadNotificationStore;
  let service: DeadNotificationsService;

  beforeEach(() => {
    store = new FakeDeadNotificationStore();
    service = new DeadNotificationsService(store);
  });

  it('requeues every dead notification without filters', async () => {
    expect(await service.requeue({}, now)).toBe(3);
    expect(store.calls).toEqual([{ filter: {}, now }]);
  });

  it('resolves the partner by name and reads a bare date as midnight UTC', async () => {
    await service.requeue({ partner: 'acme', since: '2026-02-27' }, now);
    expect(store.calls[0]!.filter).toEqual({ partnerId: '7', since: new Date('2026-02-27T00:00:00Z') });
  });

  it('takes timestamps in UTC or with an offset', async () => {
    await service.requeue({ since: '2026-02-27 08:30:00' }, now);
    await service.requeue({ since: '2026-02-27T09:30:00+01:00' }, now);
    expect(store.calls.map((call) => call.filter.since)).toEqual([
      new Date('2026-02-27T08:30:00Z'),
      new Date('2026-02-27T08:30:00Z'),
    ]);
  });

  it('refuses an unknown partner and a date it cannot read, requeueing nothing', async () => {
    await expect(service.requeue({ partner: 'nobody' }, now)).rejects.toThrow(
      new NotFoundError('partner nobody'),
    );
    for (const since of ['2026-02-30', 'yesterday', '2026-02-27T08:30:00']) {
      await expect(service.requeue({ since }, now)).rejects.toBeInstanceOf(ValidationError);
    }
    expect(store.calls).toEqual([]);
  });
});
