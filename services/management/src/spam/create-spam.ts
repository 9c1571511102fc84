import { CallerHistoryStore, type CallerHistoryRedis } from '@trackline/contracts';
import type { DataSource } from 'typeorm';
import { CdrSpamMarks } from '../cdrs/cdr-spam-mark.service';
import { TypeormCdrsStore } from '../cdrs/cdrs.store';
import { typeormUnitOfWork } from '../db/unit-of-work';
import type { RouteDefinition } from '../http/route-definition';
import { RedisSpamListsProjection, TypeormSpamListsStore, type SpamListsRedis } from './spam-lists.store';
import { SpamListsService } from './spam.service';
import { spamRoutes } from './spam.routes';

export interface SpamFeatureDeps {
  dataSource: DataSource;
  /** The Redis replacement reads the lists and callers' histories from, and its key prefix. */
  redis: CallerHistoryRedis & SpamListsRedis;
  keyPrefix: string;
}

export interface SpamFeature {
  lists: SpamListsService;
  marks: CdrSpamMarks;
  routes: RouteDefinition[];
}

/** The partner's spam lists and re-marks (docs/spam.md); the scoring itself is part of ingestion. */
export function createSpamFeature(deps: SpamFeatureDeps): SpamFeature {
  const lists = new SpamListsService(
    new TypeormSpamListsStore(deps.dataSource.manager),
    new RedisSpamListsProjection(deps.redis, deps.keyPrefix),
  );
  const marks = new CdrSpamMarks(
    typeormUnitOfWork(deps.dataSource, (manager) => ({ cdrs: new TypeormCdrsStore(manager) })),
    new CallerHistoryStore(deps.redis, deps.keyPrefix),
  );
  return { lists, marks, routes: spamRoutes(lists, marks) };
}
