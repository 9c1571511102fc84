import { CallerHistoryStore, type CallerHistoryRedis } from '@trackline/contracts';
import type { DataSource } from 'typeorm';
import { CdrSpamMarks } from '../cdrs/cdr-spam-mark.service';
import { typeormUnitOfWork } from '../db/unit-of-work';
import { RedisSpamListsProjection, type SpamListsRedis } from '../spam/spam-lists.store';
import { createSpamFeature, type SpamFeature } from '../spam/create-spam';
import { storesOn } from './stores-on-manager';

export interface SpamConnections {
  dataSource: DataSource;
  /** The Redis replacement reads the lists and callers' histories from, and its key prefix. */
  redis: CallerHistoryRedis & SpamListsRedis;
  keyPrefix: string;
}

/** The spam feature's stores (docs/architecture.md, Composition); scoring itself is ingestion's. */
export function composeSpamFeature(connections: SpamConnections): SpamFeature {
  const { dataSource, redis, keyPrefix } = connections;
  return createSpamFeature({
    lists: storesOn(dataSource.manager).spamLists,
    listsProjection: new RedisSpamListsProjection(redis, keyPrefix),
    marks: new CdrSpamMarks(
      typeormUnitOfWork(dataSource, (manager) => ({ cdrs: storesOn(manager).cdrs })),
      new CallerHistoryStore(redis, keyPrefix),
    ),
  });
}
