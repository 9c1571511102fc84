import { pingRedis, type RedisConnection } from '@trackline/platform';
import { Router } from 'express';
import { sendJson } from '../http/json-response';

/** `/health`: the process answers. `/ready`: and Redis answers, so a load balancer can route around it. */
export function healthRoutes(redis: RedisConnection): Router {
  const router = Router();
  router.get('/health', (_req, res) => sendJson(res, 200, { status: 'ok' }));
  router.get('/ready', async (_req, res) => {
    const redisUp = await pingRedis(redis);
    sendJson(res, redisUp ? 200 : 503, {
      status: redisUp ? 'ready' : 'unavailable',
      redis: redisUp ? 'up' : 'down',
    });
  });
  return router;
}
