import type { AltNumberRule, ParsedAltNumber } from '@trackline/domain';
import type { CustomFieldValues } from '../customers/customer.entity';
import type { NotificationSettings } from '../notifications/notification-settings';
import type { SourceStatus } from './source.entity';

/** A source as services see it. */
export interface Source extends NotificationSettings {
  id: string;
  partnerId: string;
  customerId: string;
  name: string;
  media: string | null;
  /** E.164. */
  phonenr: string;
  /** The static tracking number, E.164. */
  destnr: string;
  campaignId: string | null;
  publisherId: string | null;
  status: SourceStatus;
  sourceClass: string;
  activatedAt: Date;
  expire: Date | null;
  closedAt: Date | null;
  altNumbers: AltNumberRule[];
  customFields: CustomFieldValues;
  created: Date;
  modified: Date;
}

/** What POST /sources sets, checked at the edge; destnr and alt_keys are the service's business. */
export interface SourceInput extends NotificationSettings {
  customerId: string;
  name: string;
  media: string | null;
  phonenr: string;
  campaignId: string | null;
  publisherId: string | null;
  sourceClass: string;
  altNumbers: ParsedAltNumber[];
  customFields: CustomFieldValues;
}

/** What a store inserts. */
export interface NewSource extends Omit<SourceInput, 'altNumbers'> {
  destnr: string;
  activatedAt: Date;
  altNumbers: AltNumberRule[];
}

/** PUT /sources/:id as parsed: keys left out keep their value; custom fields are merged. */
export type SourceChangesInput = Partial<
  Pick<
    SourceInput,
    | 'name'
    | 'media'
    | 'campaignId'
    | 'publisherId'
    | 'email'
    | 'smsnumber'
    | 'vmGreetingId'
    | 'altNumbers'
    | 'customFields'
    | keyof NotificationSettings
  >
>;

/** What a store updates. */
export type SourceChanges = Omit<SourceChangesInput, 'altNumbers'> & { altNumbers?: AltNumberRule[] };

export interface SourceListQuery {
  page: number;
  pageSize: number;
  customerId?: string;
}

export interface SourcePage {
  sources: Source[];
  total: number;
}

/** A source of a customer by name, for the per-source table of its monthly report (docs/reports.md). */
export interface ReportSourceName {
  sourceId: string;
  name: string;
  active: boolean;
}
