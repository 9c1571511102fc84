import type { ApiResponse } from '../http/api-response';
import type { RouteDefinition } from '../http/route-definition';
import type { Webhook } from './webhook';
import { DELIVERY_NAMES, toDeliveryRecord, toWebhookRecord, WEBHOOK_NAMES } from './webhook-record';
import { parseCreateWebhook, parseDeliveriesQuery, parseUpdateWebhook } from './webhooks.dto';
import type { WebhooksService } from './webhooks.service';

/**
 * GET/POST /webhooks, GET/PUT/DELETE /webhooks/:webhookId, GET /webhooks/:webhookId/deliveries,
 * POST /webhooks/:webhookId/deliveries/:deliveryId/resend and POST /webhooks/:webhookId/test
 * (docs/webhooks.md).
 */
export function webhookRoutes(service: WebhooksService): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/webhooks',
      handle: async ({ partner }) => webhooksResponse(await service.list(partner.id)),
    },
    {
      method: 'POST',
      path: '/webhooks',
      handle: async ({ partner, body }) =>
        webhooksResponse([await service.create(partner.id, parseCreateWebhook(body))], true),
    },
    {
      method: 'GET',
      path: '/webhooks/:webhookId',
      handle: async ({ partner, params }) =>
        webhooksResponse([await service.get(partner.id, params.webhookId ?? '')]),
    },
    {
      method: 'PUT',
      path: '/webhooks/:webhookId',
      handle: async ({ partner, params, body, now }) => {
        const changes = parseUpdateWebhook(body);
        return webhooksResponse([await service.update(partner.id, params.webhookId ?? '', changes, now)]);
      },
    },
    {
      method: 'DELETE',
      path: '/webhooks/:webhookId',
      // Answers with the record as it was, so the client sees what it removed.
      handle: async ({ partner, params }) =>
        webhooksResponse([await service.delete(partner.id, params.webhookId ?? '')]),
    },
    {
      method: 'GET',
      path: '/webhooks/:webhookId/deliveries',
      handle: async ({ partner, params, query }) => {
        const paging = parseDeliveriesQuery(query);
        const { deliveries, total } = await service.deliveries(partner.id, params.webhookId ?? '', paging);
        return {
          kind: 'paged',
          names: DELIVERY_NAMES,
          records: deliveries.map(toDeliveryRecord),
          total,
          page: paging.page,
          pageSize: paging.pageSize,
        };
      },
    },
    {
      method: 'POST',
      path: '/webhooks/:webhookId/deliveries/:deliveryId/resend',
      // 202: queued again with its webhook-id; the log shows the new attempt.
      handle: async ({ partner, params, now }) => ({
        kind: 'records',
        names: DELIVERY_NAMES,
        records: [
          toDeliveryRecord(
            await service.resend(partner.id, params.webhookId ?? '', params.deliveryId ?? '', now),
          ),
        ],
        status: 202,
      }),
    },
    {
      method: 'POST',
      path: '/webhooks/:webhookId/test',
      // 202: queued; the worker sends it, and the deliveries list shows how it went.
      handle: async ({ partner, params }) => ({
        kind: 'records',
        names: DELIVERY_NAMES,
        records: [toDeliveryRecord(await service.test(partner.id, params.webhookId ?? ''))],
        status: 202,
      }),
    },
  ];
}

function webhooksResponse(webhooks: Webhook[], showSecret = false): ApiResponse {
  return {
    kind: 'records',
    names: WEBHOOK_NAMES,
    records: webhooks.map((webhook) => toWebhookRecord(webhook, { showSecret })),
  };
}
