import { randomUUID } from 'node:crypto';
import { isTracklineError, NotFoundError, ValidationError, type CountryCode } from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import type { NumberRemoval } from '../numbers/number-removal';
import type { NumbersService } from '../numbers/numbers.service';
import type { NumbersStore } from '../numbers/numbers.store';
import type { PartnersStore } from '../partners/partners.store';
import type { Partner } from '../partners/partner';
import type { CarrierAccount } from './carrier-account';
import type { CarrierAccountsStore } from './carrier-accounts.store';
import { CARRIER_CODES, CarrierAccountMissingError, CarrierError, CarrierFailedError } from './carrier-error';
import { carrierFailpoint } from './carrier-failpoint';
import { checkBuyRequest, type BuyRequest, type SearchRequest } from './carrier-numbers.dto';
import type { CarrierPurchasesStore, UnfinishedPurchase } from './carrier-purchases.store';
import type { PurchaseLock } from './purchase-lock';
import type { AvailableCarrierNumber, CarrierNumbersClient } from './twilio-numbers.client';

/** The pool autoscaler's door to the carrier (docs/carrier-numbers.md). */
export interface CarrierNumbers {
  /** Buys `count` numbers matching the criteria and adds them to the partner's inventory as `kind`. Throws CarrierError (nothing added for the failed number) or ValidationError. */
  buy(
    partnerId: string,
    request: {
      count: number;
      kind: 'pool' | 'static';
      country?: CountryCode;
      areaCode?: string;
      contains?: string;
    },
  ): Promise<{ bought: string[] }>;
  /** Releases the number at the carrier, removes it from the inventory, and quarantines it for the partner (90 days). */
  release(partnerId: string, e164: string): Promise<void>;
}

/** What a reconciliation did with the unfinished purchases (carrier:reconcile prints it). */
export interface Reconciled {
  /** Bought at the carrier and now in the inventory. */
  finished: string[];
  /** The carrier does not have them: nothing was bought. */
  abandoned: string[];
  /** Still unfinished (the carrier could not be asked, or the inventory refused it), with why. */
  unresolved: Array<{ e164: string; reason: string }>;
}

export interface CarrierNumbersDeps {
  accounts: Pick<CarrierAccountsStore, 'find'>;
  partners: Pick<PartnersStore, 'findById' | 'findByName'>;
  /** The one path into the inventory (numbers:add's checks, the Redis projections after the commit). */
  numbers: Pick<NumbersService, 'addToPartner' | 'addable'>;
  inventory: Pick<NumbersStore, 'findTaken'>;
  removal: Pick<NumberRemoval, 'remove'>;
  purchases: CarrierPurchasesStore;
  lock: PurchaseLock;
  clientFor(account: CarrierAccount): CarrierNumbersClient;
  /** Set on every number bought: the replacement service's voice webhook and management's status callback. */
  webhooks: { voiceUrl: string; statusCallback: string };
  clock: () => Date;
  logger: Logger;
}

/** Candidates asked of the carrier beyond the count, for numbers someone else takes meanwhile. */
const SPARE_CANDIDATES = 5;
const MAX_CANDIDATES = 30;

/**
 * Buys numbers at the partner's carrier and releases them (docs/carrier-numbers.md). Buying is
 * idempotent across crashes: each number's purchase is written before the carrier is asked and
 * finished after it answered; one purchase of a partner at a time (PurchaseLock), and each starts
 * by finishing what a crashed one left (reconcile).
 */
export class CarrierNumbersService implements CarrierNumbers {
  constructor(private readonly deps: CarrierNumbersDeps) {}

  /** The partner an operator command names (its advId). */
  async partnerNamed(name: string): Promise<Partner> {
    const partner = await this.deps.partners.findByName(name);
    if (partner === null) throw new NotFoundError(`partner ${name}`);
    return partner;
  }

  /** The numbers the carrier offers that the partner could add, per `request`. */
  async searchAvailable(partnerId: string, request: SearchRequest): Promise<AvailableCarrierNumber[]> {
    const { partner, client } = await this.connect(partnerId);
    const found = await client.searchAvailable({ ...request, country: request.country ?? partner.country });
    const addable = new Set(
      await this.deps.numbers.addable(
        partnerId,
        found.map((number) => number.phoneNumber),
        this.deps.clock(),
      ),
    );
    return found.filter((number) => number.voice && addable.has(number.phoneNumber));
  }

  async buy(partnerId: string, request: BuyRequest): Promise<{ bought: string[] }> {
    checkBuyRequest(request);
    const { partner, account, client } = await this.connect(partnerId);
    return this.deps.lock.withLock(partnerId, async () => {
      await this.reconcileLocked(partner, client);
      const found = await client.searchAvailable({
        country: request.country ?? partner.country,
        areaCode: request.areaCode,
        contains: request.contains,
        limit: Math.min(request.count + SPARE_CANDIDATES, MAX_CANDIDATES),
      });
      const candidates = await this.deps.numbers.addable(
        partnerId,
        found.filter((number) => number.voice).map((number) => number.phoneNumber),
        this.deps.clock(),
      );
      const bought: string[] = [];
      for (const e164 of candidates) {
        if (bought.length === request.count) break;
        try {
          if (await this.buyOne(partner, client, { e164, kind: request.kind })) bought.push(e164);
        } catch (error) {
          throw error instanceof CarrierError ? error.afterBuying(bought) : error;
        }
      }
      if (bought.length < request.count) throw noneLeft(request, partner.country, bought);
      this.deps.logger.info(
        { partnerId, bought, accountSid: account.accountSid },
        'tracking numbers bought at the carrier',
      );
      return { bought };
    });
  }

  async release(partnerId: string, e164: string): Promise<void> {
    await this.releaseNumber(partnerId, e164);
  }

  /** release, answering when the quarantine ends and whether the carrier still had the number. */
  async releaseNumber(
    partnerId: string,
    e164: string,
  ): Promise<{ quarantinedUntil: Date; atCarrier: boolean }> {
    const { client } = await this.connect(partnerId);
    let atCarrier = false;
    const quarantinedUntil = await this.deps.removal.remove(partnerId, e164, this.deps.clock(), async () => {
      const owned = await client.findOwned(e164);
      if (owned === null) {
        // Released before (a crash after the carrier's answer), or never on this account: either
        // way it costs nothing there, and the inventory must not keep a number nobody answers.
        this.deps.logger.warn(
          { partnerId, e164 },
          'released number not on the carrier account; removed from the inventory only',
        );
        return;
      }
      try {
        await client.release(owned.sid);
      } catch (error) {
        // Gone between the lookup and the DELETE: released all the same.
        if (!(error instanceof CarrierError && error.code === CARRIER_CODES.notFound)) throw error;
      }
      atCarrier = true;
    });
    return { quarantinedUntil, atCarrier };
  }

  /**
   * Finishes every partner's unfinished purchases (at the service's start, carrier:reconcile),
   * by partner name. A partner whose account is gone, or whose carrier cannot be asked, keeps its
   * purchases unfinished.
   */
  async reconcileAll(): Promise<Map<string, Reconciled>> {
    const results = new Map<string, Reconciled>();
    for (const partnerId of await this.deps.purchases.partnersWithUnfinished()) {
      const partner = await this.deps.partners.findById(partnerId);
      const name = partner?.name ?? partnerId;
      try {
        results.set(name, await this.reconcile(partnerId));
      } catch (error) {
        if (!(error instanceof CarrierError || isTracklineError(error))) throw error;
        const unfinished = await this.deps.purchases.unfinished(partnerId);
        const reason = error instanceof CarrierError ? new CarrierFailedError(error).message : error.message;
        results.set(name, {
          finished: [],
          abandoned: [],
          unresolved: unfinished.map((purchase) => ({ e164: purchase.e164, reason })),
        });
      }
    }
    return results;
  }

  async reconcile(partnerId: string): Promise<Reconciled> {
    const { partner, client } = await this.connect(partnerId);
    return this.deps.lock.withLock(partnerId, () => this.reconcileLocked(partner, client));
  }

  /**
   * Under the partner's lock, so no purchase is in flight: an `intent` is finished when the carrier
   * owns the number (the crash came after its answer) and abandoned when it does not; a `bought`
   * one is added to the inventory.
   */
  private async reconcileLocked(partner: Partner, client: CarrierNumbersClient): Promise<Reconciled> {
    const result: Reconciled = { finished: [], abandoned: [], unresolved: [] };
    for (const purchase of await this.deps.purchases.unfinished(partner.id)) {
      try {
        if (await this.settle(partner, client, purchase)) result.finished.push(purchase.e164);
        else result.abandoned.push(purchase.e164);
      } catch (error) {
        if (!(error instanceof CarrierError || error instanceof ValidationError)) throw error;
        result.unresolved.push({ e164: purchase.e164, reason: error.message });
        this.deps.logger.error(
          { err: error, partnerId: partner.id, e164: purchase.e164 },
          'carrier purchase left unfinished; carrier:reconcile tries again',
        );
      }
    }
    return result;
  }

  /** True when the number ended up in the inventory, false when the carrier does not have it. */
  private async settle(
    partner: Partner,
    client: CarrierNumbersClient,
    purchase: UnfinishedPurchase,
  ): Promise<boolean> {
    if (purchase.state === 'intent') {
      const owned = await client.findOwned(purchase.e164);
      if (owned === null) {
        await this.deps.purchases.markAbandoned(purchase.id, this.deps.clock());
        return false;
      }
      await this.deps.purchases.markBought(purchase.id, owned.sid, this.deps.clock());
    }
    await this.finish(partner, purchase);
    return true;
  }

  /** One number: the intent, the carrier's purchase, the inventory. False: someone else got it first. */
  private async buyOne(
    partner: Partner,
    client: CarrierNumbersClient,
    number: { e164: string; kind: 'pool' | 'static' },
  ): Promise<boolean> {
    const friendlyName = `trackline ${randomUUID()}`;
    const id = await this.deps.purchases.recordIntent(
      partner.id,
      { ...number, friendlyName },
      this.deps.clock(),
    );
    const purchase: UnfinishedPurchase = {
      id,
      partnerId: partner.id,
      ...number,
      friendlyName,
      sid: null,
      state: 'intent',
    };
    let sid: string;
    try {
      ({ sid } = await client.buy({ phoneNumber: number.e164, friendlyName, ...this.deps.webhooks }));
    } catch (error) {
      if (!(error instanceof CarrierError)) throw error;
      if (error.code === CARRIER_CODES.notAvailable) {
        await this.deps.purchases.markAbandoned(id, this.deps.clock());
        return false;
      }
      // No answer or a 5xx: the carrier may have bought it. Asked now; if that fails too, the
      // intent waits for the next reconciliation.
      if (error.status === 0 || error.status >= 500) {
        if (await this.settle(partner, client, purchase).catch(() => false)) return true;
      } else {
        await this.deps.purchases.markAbandoned(id, this.deps.clock());
      }
      throw error;
    }
    carrierFailpoint('carrier-after-purchase');
    await this.deps.purchases.markBought(id, sid, this.deps.clock());
    await this.finish(partner, { ...purchase, sid, state: 'bought' });
    return true;
  }

  /** Adds a bought number through the numbers service; already in the partner's inventory counts as added. */
  private async finish(partner: Partner, purchase: UnfinishedPurchase): Promise<void> {
    const [taken] = await this.deps.inventory.findTaken([purchase.e164]);
    if (taken === undefined) {
      await this.deps.numbers.addToPartner(partner.id, purchase.kind, [purchase.e164], this.deps.clock());
    } else if (taken.partnerName !== partner.name) {
      throw new ValidationError('numbers', `${purchase.e164} is in the inventory of another partner`);
    }
    await this.deps.purchases.markDone(purchase.id, this.deps.clock());
  }

  private async connect(
    partnerId: string,
  ): Promise<{ partner: Partner; account: CarrierAccount; client: CarrierNumbersClient }> {
    const partner = await this.deps.partners.findById(partnerId);
    if (partner === null) throw new NotFoundError(`partner ${partnerId}`);
    const account = await this.deps.accounts.find(partnerId);
    if (account === null) throw new CarrierAccountMissingError();
    return { partner, account, client: this.deps.clientFor(account) };
  }
}

/** Fewer numbers on offer than asked for: Twilio's "not available", with what was bought. */
function noneLeft(request: BuyRequest, country: CountryCode, bought: string[]): CarrierError {
  const criteria = [
    `country ${request.country ?? country}`,
    ...(request.areaCode === undefined ? [] : [`area code ${request.areaCode}`]),
    ...(request.contains === undefined ? [] : [`contains ${request.contains}`]),
  ].join(', ');
  return new CarrierError(
    400,
    CARRIER_CODES.notAvailable,
    `only ${bought.length} of ${request.count} numbers available at the carrier for ${criteria}`,
    bought,
  );
}
