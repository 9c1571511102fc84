import { TracklineError } from '@trackline/domain';

/**
 * A lookup missed while Redis does not hold a complete generation of management's projections
 * (docs/redis-keys.md, Projection generation): Redis came back empty and management is rebuilding
 * them. The partner or the number may well exist, so neither `403 Invalid signature` nor `reject`
 * would be true; a 503 makes the partner's page keep its own numbers and the provider use the
 * number's fallback URL, and a retry a few seconds later succeeds.
 */
export class ProjectionsRebuildingError extends TracklineError {
  readonly status = 503;
  readonly code = 'projections_rebuilding';

  constructor() {
    super('Service starting: configuration is being rebuilt, retry shortly');
  }
}
