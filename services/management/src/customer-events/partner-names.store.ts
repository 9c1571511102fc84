import type { EntityManager } from 'typeorm';
import { PartnerEntity } from '../partners/partner.entity';

/** A partner's advId (the name its Redis keys are built from) by its id. */
export interface PartnerNames {
  nameOf(partnerId: string): Promise<string | null>;
}

export class TypeormPartnerNames implements PartnerNames {
  constructor(private readonly manager: EntityManager) {}

  async nameOf(partnerId: string): Promise<string | null> {
    const row = await this.manager
      .getRepository(PartnerEntity)
      .findOne({ where: { id: partnerId }, select: { id: true, name: true } });
    return row?.name ?? null;
  }
}
