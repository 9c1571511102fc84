import type { RouteDefinition } from '../http/route-definition';
import type { CdrSpamMarks } from '../cdrs/cdr-spam-mark.service';
import type { RedisSpamListsProjection, TypeormSpamListsStore } from './spam-lists.store';
import { SpamListsService } from './spam.service';
import { spamRoutes } from './spam.routes';

export interface SpamFeatureDeps {
  /** The lists in Postgres, on the main pool. */
  lists: TypeormSpamListsStore;
  /** Their copy in Redis, which the voice webhook reads. */
  listsProjection: RedisSpamListsProjection;
  /** Re-marks of call records (docs/spam.md, Re-marks). */
  marks: CdrSpamMarks;
}

export interface SpamFeature {
  lists: SpamListsService;
  marks: CdrSpamMarks;
  routes: RouteDefinition[];
}

/** The partner's spam lists and re-marks (docs/spam.md); the scoring itself is part of ingestion. */
export function createSpamFeature(deps: SpamFeatureDeps): SpamFeature {
  const lists = new SpamListsService(deps.lists, deps.listsProjection);
  return { lists, marks: deps.marks, routes: spamRoutes(lists, deps.marks) };
}
