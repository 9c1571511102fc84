import { randomBytes } from 'node:crypto';
import { digestRequest, probe, type ProbeResult } from './http-probe';

/** A customer of the partner with the static number (its source's destnr) its calls come in on. */
export interface ProbeCustomer {
  id: string;
  custnr: string;
  name: string;
  destnr: string;
}

export interface ConcurrencyProbe {
  managementUrl: string;
  username: string;
  password: string;
  telephonyToken: string;
  customers: ProbeCustomer[];
  /** Call records posted in all, spread over the customers' numbers. */
  records: number;
  /** Records in flight at once on the switch side. */
  writers: number;
}

export interface ProbeOutcome {
  /** Every answer that was not exactly what a correct server gives, described. */
  bad: string[];
  /** The cdr_id of every record the switch was answered 201 for, per customer (custnr → ids). */
  posted: Map<string, string[]>;
}

// Every record starts in this range; the statistics query asks for that month.
const START = '2026-03-02 09:00:00';
const RANGE = 'from_date=2026-03-01&to_date=2026-04-01';

/**
 * The switch posts call records while one partner-side client per customer reads that customer and
 * its call records, all at once. Every answer is checked for status and content: a wrong customer,
 * a record of another customer, a call id never posted or a 401 for the right password is a bad
 * answer. Bounded by the number of records: readers stop when the last record is answered.
 */
export async function runConcurrencyProbe(probeSetup: ConcurrencyProbe): Promise<ProbeOutcome> {
  const bad: string[] = [];
  const posted = new Map(probeSetup.customers.map((customer) => [customer.custnr, [] as string[]]));
  const runId = randomBytes(4).toString('hex');
  let writing = true;

  const postRecord = async (index: number): Promise<void> => {
    const customer = probeSetup.customers[index % probeSetup.customers.length];
    const callId = `probe-${runId}-${index}`;
    const body = JSON.stringify({
      call_id: callId,
      anum: `+4791${String(200000 + index).padStart(6, '0')}`,
      bnum: customer.destnr,
      start: START,
      duration: 30 + index,
      answered: 1,
    });
    const answer = await probe(`${probeSetup.managementUrl}/telephony/cdrs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${probeSetup.telephonyToken}`, 'Content-Type': 'application/json' },
      body,
    });
    const record = parse<{ cdrs?: Array<Record<string, unknown>> }>(answer)?.cdrs?.[0];
    if (
      answer.status !== 201 ||
      record?.call_id !== callId ||
      record.custnr !== customer.custnr ||
      record.bnum !== customer.destnr
    ) {
      bad.push(`POST ${callId} for ${customer.custnr}: ${describe(answer)}`);
      return;
    }
    posted.get(customer.custnr)!.push(String(record.cdr_id));
  };

  const writer = async (first: number): Promise<void> => {
    for (let index = first; index < probeSetup.records; index += probeSetup.writers) await postRecord(index);
  };

  const reader = async (customer: ProbeCustomer, k: number): Promise<void> => {
    // At least one round, then on until the last record is answered.
    do {
      const single = await partnerGet(probeSetup, `/v1/customers/${customer.id}`);
      const found = parse<{ customers?: Array<Record<string, unknown>> }>(single)?.customers;
      if (
        single.status !== 200 ||
        found?.length !== 1 ||
        String(found[0].customer_id) !== customer.id ||
        found[0].custnr !== customer.custnr ||
        found[0].name !== customer.name
      )
        bad.push(`GET customer ${customer.custnr}: ${describe(single)}`);

      const list = await partnerGet(probeSetup, `/v1/statistics/cdrs?custnr=${customer.custnr}&${RANGE}`);
      const records = parse<{ cdrs?: Array<Record<string, unknown>> }>(list)?.cdrs;
      // Each posted record has its own duration (30 + its index), which names the customer it is for.
      const foreign = (records ?? []).filter(
        (record) =>
          String(record.customer_id) !== customer.id ||
          record.custnr !== customer.custnr ||
          record.bnum !== customer.destnr ||
          (Number(record.duration) - 30) % probeSetup.customers.length !== k,
      );
      if (list.status !== 200 || records === undefined || foreign.length > 0)
        bad.push(`GET records of ${customer.custnr}: ${describe(list)}`);
    } while (writing);
  };

  const readers = probeSetup.customers.map(reader);
  await Promise.all(Array.from({ length: probeSetup.writers }, (_, first) => writer(first)));
  writing = false;
  await Promise.all(readers);
  return { bad, posted };
}

/** A digest-authenticated GET on the management API, as the partner would make it. */
export function partnerGet(
  setup: Pick<ConcurrencyProbe, 'managementUrl' | 'username' | 'password'>,
  path: string,
) {
  return digestRequest(`${setup.managementUrl}${path}`, setup.username, setup.password);
}

export function parse<T>(answer: ProbeResult): T | undefined {
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    return undefined;
  }
}

function describe(answer: ProbeResult): string {
  return `${answer.status} ${answer.text.slice(0, 300)}`;
}
