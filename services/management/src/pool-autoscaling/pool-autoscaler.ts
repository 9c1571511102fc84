import { NotFoundError, ValidationError } from '@trackline/domain';
import type { Logger } from '@trackline/platform';
import type { LastCallsReader } from '../cdrs/last-calls.reader';
import type { UnitOfWork } from '../db/unit-of-work';
import type { NumberPoolsService } from '../numbers/number-pools.service';
import type { NumbersStore } from '../numbers/numbers.store';
import type { PoolBindingsReader } from '../numbers/pool-bindings.reader';
import type {
  PoolResize,
  ResizeOutcome,
  ResizeTrigger,
  TypeormPoolResizesStore,
} from '../numbers/pool-resizes.store';
import { numberMonthlyPrice } from '../numbers/pool-settings';
import type { PoolSettingsStore } from '../numbers/pool-settings.store';
import type { Partner } from '../partners/partner';
import type { WebhookEventQueue } from '../webhooks/webhook-events';
import type { CarrierNumbers } from '../carrier/carrier-numbers.service';
import { describeCarrierFailure, type CarrierFailure } from './carrier-failure';
import { IDLE_DAYS_BEFORE_RELEASE, planResize, type ResizePlan } from './resize-plan';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What an evaluation's outcome is counted as (the metrics implement it). */
export interface PoolAutoscalingObserver {
  poolEvaluated(advId: string, outcome: ResizeOutcome, failure: CarrierFailure | null): void;
}

export interface PoolAutoscalerDeps {
  partners: { findById(id: string): Promise<Partner | null> };
  pools: Pick<NumberPoolsService, 'overview'>;
  numbers: Pick<NumbersStore, 'list'>;
  bindings: PoolBindingsReader;
  calls: Pick<LastCallsReader, 'lastCallsTo'>;
  settings: Pick<PoolSettingsStore, 'autoscalingPartnerIds' | 'claimEvaluation'>;
  carrier: Pick<CarrierNumbers, 'buy' | 'release'>;
  /** The audit row and its `pool.resized` deliveries, in one transaction. */
  audit: UnitOfWork<{ resizes: Pick<TypeormPoolResizesStore, 'record'>; webhooks: WebhookEventQueue }>;
  logger: Logger;
}

/**
 * The pool's autoscaling (docs/pool-sizing.md, Autoscaling): plans from the advisor's figures and
 * the policy, buys or releases one number at a time through the carrier, and records what it did.
 * A carrier error stops the evaluation where it is: what was done before it stays (a bought number
 * is in the pool and paid for), nothing after it is tried, and the next evaluation tries again.
 */
export class PoolAutoscaler {
  private readonly observers: PoolAutoscalingObserver[] = [];

  constructor(private readonly deps: PoolAutoscalerDeps) {}

  /** Told of every evaluation's outcome from now on (the metrics, built after the services). */
  observe(observer: PoolAutoscalingObserver): void {
    this.observers.push(observer);
  }

  /** What an evaluation would do now, changing nothing. */
  async plan(partnerId: string, now: Date): Promise<ResizePlan> {
    return (await this.prepare(partnerId, now)).plan;
  }

  /** An evaluation now, asked for by the partner (`api`) or the operator (`cli`), or the schedule's. */
  async evaluate(partnerId: string, trigger: ResizeTrigger, now: Date): Promise<PoolResize> {
    const { partner, plan, request } = await this.prepare(partnerId, now);
    if (request === null)
      throw new ValidationError(
        'autoscaling',
        'is 0 for this pool: set autoscaling=1 (PUT /number_pools) first',
      );
    const added: string[] = [];
    const released: string[] = [];
    let failure: CarrierFailure | null = null;
    try {
      for (let bought = 0; bought < plan.addCount; bought++)
        added.push(...(await this.deps.carrier.buy(partnerId, request)).bought);
      for (const e164 of plan.release) {
        await this.deps.carrier.release(partnerId, e164);
        released.push(e164);
      }
    } catch (error) {
      failure = describeCarrierFailure(error);
    }
    const outcome: ResizeOutcome =
      failure !== null ? 'failed' : added.length > 0 ? 'grew' : released.length > 0 ? 'shrank' : 'unchanged';
    const changed = added.length > 0 || released.length > 0;
    const resize = await this.deps.audit.run(async ({ resizes, webhooks }) => {
      const row = await resizes.record(partnerId, {
        trigger,
        outcome,
        fromSize: plan.fromSize,
        toSize: plan.fromSize + added.length - released.length,
        added,
        released,
        reason:
          failure === null
            ? plan.reason
            : `${plan.reason}; stopped: the carrier answered ${failure.code} (${failure.message})` +
              (changed
                ? `, after ${added.length} bought and ${released.length} released`
                : ', nothing changed'),
        errorCode: failure?.code ?? null,
        error: failure?.message ?? null,
        plan: plan.figures,
      });
      if (changed) await webhooks.enqueue(partnerId, [{ type: 'pool.resized' }]);
      return row;
    });
    for (const observer of this.observers) observer.poolEvaluated(partner.name, outcome, failure);
    const log = { partner: partner.name, trigger, outcome, from: resize.fromSize, to: resize.toSize };
    if (failure === null) this.deps.logger.info(log, 'pool evaluated');
    else
      this.deps.logger.warn(
        { ...log, carrierCode: failure.code, carrierError: failure.message },
        'pool evaluation stopped by a carrier error',
      );
    return resize;
  }

  /**
   * The schedule's round: each autoscaling pool whose last evaluation began `intervalMs` ago or
   * more is evaluated by the one replica that claims it. One pool's failure does not stop the rest.
   */
  async runDue(now: Date, intervalMs: number): Promise<number> {
    let evaluated = 0;
    for (const partnerId of await this.deps.settings.autoscalingPartnerIds()) {
      if (!(await this.deps.settings.claimEvaluation(partnerId, now, intervalMs))) continue;
      try {
        await this.evaluate(partnerId, 'schedule', now);
        evaluated++;
      } catch (error) {
        this.deps.logger.error(
          { err: error, partnerId },
          'pool evaluation failed; it is tried again next round',
        );
      }
    }
    return evaluated;
  }

  private async prepare(partnerId: string, now: Date) {
    const partner = await this.deps.partners.findById(partnerId);
    if (partner === null) throw new NotFoundError(`partner ${partnerId}`);
    const overview = await this.deps.pools.overview(partner, now, undefined);
    const policy = overview.settings.autoscaling;
    const inventory = (await this.deps.numbers.list(partnerId)).filter((number) => number.kind === 'pool');
    const [bound, lastCalls] = await Promise.all([
      this.deps.bindings.boundNumbers(partner.name, now),
      this.deps.calls.lastCallsTo(
        partnerId,
        inventory.map((number) => number.e164),
        new Date(now.getTime() - IDLE_DAYS_BEFORE_RELEASE * DAY_MS),
      ),
    ]);
    const boundSet = new Set(bound);
    const plan = planResize({
      policy,
      price: numberMonthlyPrice(policy),
      recommendation: overview.recommendation,
      numbers: inventory.map((number) => ({
        e164: number.e164,
        bound: boundSet.has(number.e164),
        lastCallAt: lastCalls.get(number.e164) ?? null,
        addedAt: number.addedAt,
      })),
      now,
    });
    const request = policy.enabled
      ? {
          count: 1,
          kind: 'pool' as const,
          country: policy.country ?? partner.country,
          ...(policy.areaCode === null ? {} : { areaCode: policy.areaCode }),
          ...(policy.contains === null ? {} : { contains: policy.contains }),
        }
      : null;
    return { partner, plan, request };
  }
}
