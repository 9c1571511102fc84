import { OutboxBell } from './outbox-bell';

describe('OutboxBell', () => {
  it('wakes the listeners of the outboxes rung, each once per ring, until they stop listening', () => {
    const bell = new OutboxBell();
    const woken: string[] = [];
    const stopWebhooks = bell.listen('webhooks', () => woken.push('webhooks'));
    bell.listen('webhooks', () => woken.push('webhooks, second worker'));
    bell.listen('conversions', () => woken.push('conversions'));

    bell.ring(new Set(['webhooks', 'notifications'] as const));
    expect(woken).toEqual(['webhooks', 'webhooks, second worker']);

    stopWebhooks();
    woken.length = 0;
    bell.ring(['webhooks', 'conversions']);
    expect(woken).toEqual(['webhooks, second worker', 'conversions']);

    woken.length = 0;
    bell.ring([]);
    expect(woken).toEqual([]);
  });
});
