import type { EntityManager } from 'typeorm';
import { VoicemailGreetingEntity } from './voicemail-greeting.entity';
import type { Greeting, GreetingWithSound } from './greeting';

export interface NewGreeting {
  customerId: string;
  name: string;
  recordPin: string;
}

export interface GreetingsStore {
  /** The customer's greetings, ordered by id, without their audio. */
  list(partnerId: string, customerId: string): Promise<Greeting[]>;
  /** `lock` holds the row until the surrounding transaction ends (use inside a UnitOfWork). */
  findById(
    partnerId: string,
    customerId: string,
    id: string,
    options?: { withSound?: boolean; lock?: boolean },
  ): Promise<GreetingWithSound | null>;
  /** Null when the PIN is already reserved by another unrecorded greeting (the caller draws again). */
  insert(partnerId: string, greeting: NewGreeting): Promise<Greeting | null>;
  delete(partnerId: string, id: string): Promise<void>;
  /** Whether the greeting exists and is this customer's (sources and campaigns may only use those). */
  greetingBelongsToCustomer(partnerId: string, customerId: string, greetingId: string): Promise<boolean>;
  /**
   * Stores the audio of the unrecorded greeting holding `recordPin`, which frees the PIN.
   * Null when no unrecorded greeting holds it.
   */
  saveRecording(recordPin: string, sounddata: Buffer, now: Date): Promise<Greeting | null>;
  /** The unrecorded greeting holding `recordPin` (the dial-in's PIN check), else null. */
  findWaiting(recordPin: string): Promise<Greeting | null>;
  /** Any partner's greeting by id, with its audio (the signed audio link and the dial-in carry only the id). */
  findWithSound(id: string): Promise<GreetingWithSound | null>;
}

export class TypeormGreetingsStore implements GreetingsStore {
  constructor(private readonly manager: EntityManager) {}

  /**
   * The owning customer's id, or null when the partner has no such greeting; share-locks the row
   * until the transaction ends, so a concurrent delete waits for the referring write.
   */
  async lockOwner(partnerId: string, greetingId: string): Promise<string | null> {
    const rows = (await this.manager.query(
      `SELECT customer_id FROM voicemail_greetings WHERE partner_id = $1 AND id = $2 FOR SHARE`,
      [partnerId, greetingId],
    )) as Array<{ customer_id: string }>;
    return rows[0]?.customer_id ?? null;
  }

  async list(partnerId: string, customerId: string): Promise<Greeting[]> {
    const rows = await this.manager
      .getRepository(VoicemailGreetingEntity)
      .find({ where: { partnerId, customerId }, order: { id: 'ASC' } });
    return rows.map(toGreeting);
  }

  async findById(
    partnerId: string,
    customerId: string,
    id: string,
    options: { withSound?: boolean; lock?: boolean } = {},
  ): Promise<GreetingWithSound | null> {
    const query = this.manager
      .getRepository(VoicemailGreetingEntity)
      .createQueryBuilder('greeting')
      .where(
        'greeting.id = :id AND greeting.partner_id = :partnerId AND greeting.customer_id = :customerId',
        {
          id,
          partnerId,
          customerId,
        },
      );
    if (options.withSound === true) query.addSelect('greeting.sounddata');
    if (options.lock === true) query.setLock('pessimistic_write');
    const row = await query.getOne();
    if (row === null) return null;
    return { ...toGreeting(row), sounddata: options.withSound === true ? (row.sounddata ?? null) : null };
  }

  async insert(partnerId: string, greeting: NewGreeting): Promise<Greeting | null> {
    // The only unique index besides the key is the unrecorded-PIN one, so DO NOTHING means "PIN taken"
    // and the transaction stays usable for the next draw.
    const result = await this.manager
      .createQueryBuilder()
      .insert()
      .into(VoicemailGreetingEntity)
      .values({
        partnerId,
        customerId: greeting.customerId,
        name: greeting.name,
        recordPin: greeting.recordPin,
      })
      .orIgnore()
      .returning(['id'])
      .execute();
    const inserted = result.raw as Array<{ id: string }>;
    if (inserted.length === 0) return null;
    const row = await this.manager
      .getRepository(VoicemailGreetingEntity)
      .findOneByOrFail({ id: inserted[0]!.id });
    return toGreeting(row);
  }

  async delete(partnerId: string, id: string): Promise<void> {
    await this.manager.getRepository(VoicemailGreetingEntity).delete({ partnerId, id });
  }

  async greetingBelongsToCustomer(
    partnerId: string,
    customerId: string,
    greetingId: string,
  ): Promise<boolean> {
    if (!/^[1-9]\d{0,18}$/.test(greetingId)) return false;
    return this.manager
      .getRepository(VoicemailGreetingEntity)
      .exists({ where: { partnerId, customerId, id: greetingId } });
  }

  async saveRecording(recordPin: string, sounddata: Buffer, now: Date): Promise<Greeting | null> {
    const result = await this.manager
      .createQueryBuilder()
      .update(VoicemailGreetingEntity)
      .set({ sounddata, datalength: sounddata.length, recorded: now })
      .where('record_pin = :recordPin AND sounddata IS NULL', { recordPin })
      .returning(['id'])
      .execute();
    const updated = result.raw as Array<{ id: string }>;
    if (updated.length === 0) return null;
    const row = await this.manager
      .getRepository(VoicemailGreetingEntity)
      .findOneByOrFail({ id: updated[0]!.id });
    return toGreeting(row);
  }

  async findWaiting(recordPin: string): Promise<Greeting | null> {
    if (!/^\d{6}$/.test(recordPin)) return null;
    const row = await this.manager
      .getRepository(VoicemailGreetingEntity)
      .createQueryBuilder('greeting')
      .where('greeting.record_pin = :recordPin AND greeting.sounddata IS NULL', { recordPin })
      .getOne();
    return row === null ? null : toGreeting(row);
  }

  async findWithSound(id: string): Promise<GreetingWithSound | null> {
    if (!/^[1-9]\d{0,18}$/.test(id)) return null;
    const row = await this.manager
      .getRepository(VoicemailGreetingEntity)
      .createQueryBuilder('greeting')
      .addSelect('greeting.sounddata')
      .where('greeting.id = :id', { id })
      .getOne();
    return row === null ? null : { ...toGreeting(row), sounddata: row.sounddata };
  }
}

function toGreeting(row: VoicemailGreetingEntity): Greeting {
  return {
    id: row.id,
    partnerId: row.partnerId,
    customerId: row.customerId,
    name: row.name,
    recordPin: row.recordPin,
    datalength: row.datalength,
    created: row.created,
    recorded: row.recorded,
  };
}
