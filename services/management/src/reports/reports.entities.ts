import { CdrReportBucketEntity } from './cdr-report-bucket.entity';

/** The tables this feature owns, for the list composition/management-entities.ts assembles. */
export const REPORTS_ENTITIES = [CdrReportBucketEntity];
