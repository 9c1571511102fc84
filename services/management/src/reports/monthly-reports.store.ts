import type { EntityManager } from 'typeorm';
import type { OutcomeFigureRow, TypeormCdrOutcomesStore } from '../cdrs/cdr-outcomes.store';
import type { TypeormCustomersStore } from '../customers/customers.store';
import type { TypeormSourcesStore } from '../sources/sources.store';
import type { ReportSourceName } from '../sources/source';
import type { ReportFigureRow } from './monthly-report';

export interface MonthlyReportStore {
  /**
   * The customer's figures per local day and source for calls that started in [from, to), summed
   * from "cdr_report_buckets": a quarter hour lies wholly inside one local day in every zone.
   */
  figures(query: {
    partnerId: string;
    customerId: string;
    from: Date;
    to: Date;
    timeZone: string;
  }): Promise<ReportFigureRow[]>;
  /** The outcomes of the customer's calls that started in [from, to), per status and currency. */
  outcomeFigures(query: {
    partnerId: string;
    customerId: string;
    from: Date;
    to: Date;
  }): Promise<OutcomeFigureRow[]>;
  /** The customer's sources (open and closed), for names in the per-source table. */
  sourceNames(partnerId: string, customerId: string): Promise<ReportSourceName[]>;
  /** The partner's customers with receive_monthly_report = 1 and an e-mail address, by id. */
  recipients(partnerId: string): Promise<ReportRecipient[]>;
}

export interface ReportRecipient {
  customerId: string;
  email: string;
}

type Row = Record<string, unknown>;

/** The owners of the source names and the recipients, on the same manager. */
export interface MonthlyReportStoreCollaborators {
  sources: Pick<TypeormSourcesStore, 'sourceNames'>;
  customers: Pick<TypeormCustomersStore, 'monthlyReportRecipients'>;
  outcomes: Pick<TypeormCdrOutcomesStore, 'outcomeFigures'>;
}

export class TypeormMonthlyReportStore implements MonthlyReportStore {
  constructor(
    private readonly manager: EntityManager,
    private readonly owners: MonthlyReportStoreCollaborators,
  ) {}

  async figures(query: {
    partnerId: string;
    customerId: string;
    from: Date;
    to: Date;
    timeZone: string;
  }): Promise<ReportFigureRow[]> {
    const rows: Row[] = await this.manager.query(
      `SELECT to_char(("bucket" AT TIME ZONE $5)::date, 'YYYY-MM-DD') AS "date",
              "source_id"::text AS "source_id", sum("calls")::int AS "calls",
              sum("answered")::int AS "answered", sum("voicemails")::int AS "voicemails",
              sum("leads")::int AS "leads", sum("commission")::numeric(14,2)::text AS "commission"
         FROM "cdr_report_buckets"
        WHERE "partner_id" = $1 AND "customer_id" = $2 AND "bucket" >= $3 AND "bucket" < $4
        GROUP BY 1, 2
       HAVING sum("calls") > 0`,
      [query.partnerId, query.customerId, query.from, query.to, query.timeZone],
    );
    return rows.map((row) => ({
      date: row.date as string,
      sourceId: row.source_id as string,
      calls: row.calls as number,
      answered: row.answered as number,
      voicemails: row.voicemails as number,
      leads: row.leads as number,
      commission: row.commission as string,
    }));
  }

  outcomeFigures(query: {
    partnerId: string;
    customerId: string;
    from: Date;
    to: Date;
  }): Promise<OutcomeFigureRow[]> {
    return this.owners.outcomes.outcomeFigures(query);
  }

  sourceNames(partnerId: string, customerId: string): Promise<ReportSourceName[]> {
    return this.owners.sources.sourceNames(partnerId, customerId);
  }

  recipients(partnerId: string): Promise<ReportRecipient[]> {
    return this.owners.customers.monthlyReportRecipients(partnerId);
  }
}
