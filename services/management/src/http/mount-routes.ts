import { NotFoundError } from '@trackline/domain';
import type { Request, Response } from 'express';
import { setRouteTemplate } from '../metrics/http-metrics';
import { requestState } from './request-state';
import { renderResponse } from './response-renderer';
import type { RouteDefinition } from './route-definition';
import { RouteTable } from './route-table';

/**
 * The route-registration helper (STYLE §5): every RouteDefinition runs behind the same steps —
 * path normalised, partner authenticated, body parsed, method resolved (see createHttpApp) — and
 * its ApiResponse is rendered here in the negotiated format. Handlers only decide and return data;
 * their errors (sync or async) reach the one error handler.
 */
export function mountRoutes(definitions: readonly RouteDefinition[], clock: () => Date) {
  const table = new RouteTable(definitions);
  return async (req: Request, res: Response): Promise<void> => {
    const state = requestState(res);
    if (state.unknownVersion !== undefined) throw new NotFoundError(`API version ${state.unknownVersion}`);
    if (state.partner === undefined) throw new Error('route reached without an authenticated partner');
    const match = table.match(state.method, state.segments, state.query);
    setRouteTemplate(res, match.definition.method, match.definition.path);
    const response = await match.definition.handle({
      partner: state.partner,
      params: match.params,
      query: match.query,
      body: req.body as Record<string, unknown>,
      now: clock(),
      log: req.log,
    });
    const rendered = renderResponse(response, state.format);
    res
      .status(response.status ?? 200)
      .type(rendered.contentType)
      .send(rendered.body);
  };
}
