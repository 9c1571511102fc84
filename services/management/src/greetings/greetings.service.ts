import { ForbiddenError, NotFoundError, ServiceUnavailableError } from '@trackline/domain';
import type { CustomersStore } from '../customers/customers.store';
import type { UnitOfWork } from '../db/unit-of-work';
import type { GreetingUsageReader } from './greeting-usage';
import type { Greeting, GreetingUsage, GreetingWithSound } from './greeting';
import type { GreetingsStore } from './greetings.store';
import { isBigintId } from '../validation/record-id';

/** What deleting a greeting touches inside one transaction. */
export interface GreetingDeletionStores {
  greetings: GreetingsStore;
  usage: GreetingUsageReader;
}

export interface UsedGreeting<G extends Greeting = Greeting> {
  greeting: G;
  usage: GreetingUsage;
}

/** Draws a six-digit PIN; crypto-random in production, scripted in tests. */
export type PinSource = () => string;

// A million PINs and only unrecorded greetings reserve one: a collision is rare, ten in a row means
// the PIN space is nearly used up by greetings nobody records.
const PIN_ATTEMPTS = 10;
const NONE: GreetingUsage = { sources: [], campaigns: [] };

export class GreetingsService {
  constructor(
    private readonly greetings: GreetingsStore,
    private readonly customers: Pick<CustomersStore, 'findById'>,
    private readonly usage: GreetingUsageReader,
    private readonly deletion: UnitOfWork<GreetingDeletionStores>,
    private readonly pins: PinSource,
    /** GREETING_RECORD_NUMBER: the dial-in number every greeting is recorded through. */
    readonly recordNumber: string,
  ) {}

  async list(partnerId: string, customerId: string): Promise<UsedGreeting[]> {
    const customer = await this.requireCustomer(partnerId, customerId);
    const greetings = await this.greetings.list(partnerId, customer);
    const usage = await this.usage.usage(
      partnerId,
      greetings.map((greeting) => greeting.id),
    );
    return greetings.map((greeting) => ({ greeting, usage: usage.get(greeting.id) ?? NONE }));
  }

  /** With the recording. */
  async get(
    partnerId: string,
    customerId: string,
    greetingId: string,
  ): Promise<UsedGreeting<GreetingWithSound>> {
    const customer = await this.requireCustomer(partnerId, customerId);
    const id = requireId(greetingId, 'voicemail greeting');
    const greeting = await this.greetings.findById(partnerId, customer, id, { withSound: true });
    if (greeting === null) throw new NotFoundError(`voicemail greeting ${greetingId}`);
    const usage = await this.usage.usage(partnerId, [id]);
    return { greeting, usage: usage.get(id) ?? NONE };
  }

  /** A placeholder awaiting its recording, with a PIN no other unrecorded greeting holds. */
  async create(partnerId: string, customerId: string, name: string): Promise<UsedGreeting> {
    const customer = await this.requireCustomer(partnerId, customerId);
    for (let attempt = 0; attempt < PIN_ATTEMPTS; attempt++) {
      const greeting = await this.greetings.insert(partnerId, {
        customerId: customer,
        name,
        recordPin: this.pins(),
      });
      if (greeting !== null) return { greeting, usage: NONE };
    }
    throw new ServiceUnavailableError('No free recording PIN right now; record or delete waiting greetings');
  }

  /** Refused with 403 naming the users while a source or campaign uses it; returns the deleted greeting. */
  async delete(partnerId: string, customerId: string, greetingId: string): Promise<UsedGreeting> {
    const customer = await this.requireCustomer(partnerId, customerId);
    const id = requireId(greetingId, 'voicemail greeting');
    // The row lock makes a concurrent source or campaign that sets this greeting (its foreign-key
    // check locks the row too) wait until the delete is decided.
    return this.deletion.run(async ({ greetings, usage }) => {
      const greeting = await greetings.findById(partnerId, customer, id, { lock: true });
      if (greeting === null) throw new NotFoundError(`voicemail greeting ${greetingId}`);
      const users = (await usage.usage(partnerId, [id])).get(id) ?? NONE;
      if (users.sources.length > 0 || users.campaigns.length > 0) {
        throw new ForbiddenError(`Voicemail greeting ${greetingId} is in use by ${describeUsers(users)}`);
      }
      await greetings.delete(partnerId, id);
      return { greeting, usage: NONE };
    });
  }

  /** The switch delivers a recording for a PIN (docs/switch.md). 404 when no greeting waits for that PIN. */
  async record(recordPin: string, sounddata: Buffer, now: Date): Promise<Greeting> {
    const greeting = await this.greetings.saveRecording(recordPin, sounddata, now);
    if (greeting === null)
      throw new NotFoundError(`unrecorded voicemail greeting with record_pin ${recordPin}`);
    return greeting;
  }

  /** The dial-in's PIN check: the greeting waiting for a recording under this PIN, else null. */
  waitingFor(recordPin: string): Promise<Greeting | null> {
    return this.greetings.findWaiting(recordPin);
  }

  /** A greeting with its audio, by id alone (the provider's signed links carry no partner). */
  withSound(greetingId: string): Promise<GreetingWithSound | null> {
    return this.greetings.findWithSound(greetingId);
  }

  /**
   * The dial-in's recording for the greeting it chose by PIN; a repeated delivery after the first
   * stored returns the greeting as it is. 404 when no such greeting exists.
   */
  async recordFor(greetingId: string, sounddata: Buffer, now: Date): Promise<Greeting> {
    const greeting = await this.greetings.findWithSound(greetingId);
    if (greeting === null) throw new NotFoundError(`voicemail greeting ${greetingId}`);
    if (greeting.sounddata !== null) {
      const { sounddata: _stored, ...recorded } = greeting;
      return recorded;
    }
    return this.record(greeting.recordPin, sounddata, now);
  }

  private async requireCustomer(partnerId: string, customerId: string): Promise<string> {
    const id = requireId(customerId, 'customer');
    if ((await this.customers.findById(partnerId, id)) === null)
      throw new NotFoundError(`customer ${customerId}`);
    return id;
  }
}

export function describeUsers(usage: GreetingUsage): string {
  const parts = [
    ...usage.sources.map((source) => `source ${source.id} (${source.name})`),
    ...usage.campaigns.map((campaign) => `campaign ${campaign.id} (${campaign.name})`),
  ];
  return parts.join(', ');
}

// Ids are bigint identities; anything else cannot name a row: "not found" (docs/partner-api.md, Errors).
function requireId(value: string, what: string): string {
  if (!isBigintId(value)) throw new NotFoundError(`${what} ${value}`);
  return value;
}
