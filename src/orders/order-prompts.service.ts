import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import {
  Complete,
  CompletionRequest,
  Prompt,
  PromptMessages,
} from '@nestops/mcp';
import { CurrentTenant } from './current-tenant';
import { DraftRestockDto } from './dto/draft-restock.dto';
import { Order } from './order.entity';

/** Most values a completer looks up: one more than a completion sends, so it knows there are more. */
const COMPLETION_LOOKUP = 101;

/**
 * The order desk's prompt and completers: each runs with the caller's
 * rights (the app's guards, then `orders.read`), on the caller's tenant's
 * orders only.
 */
@Injectable()
export class OrderPromptsService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly tenant: CurrentTenant,
  ) {}

  @Prompt({
    name: 'draft-restock-order',
    title: 'Draft a restock order',
    description:
      "Drafts a restock order for one of the caller's tenant's products, from what the tenant has ordered of it so far. Needs the orders.read permission.",
    permission: 'orders.read',
  })
  async draftRestock(input: DraftRestockDto): Promise<PromptMessages> {
    const { count, total } = (await this.txHost.tx
      .getRepository(Order)
      .createQueryBuilder('o')
      .select('COUNT(*)', 'count')
      .addSelect('COALESCE(SUM(o.amount), 0)', 'total')
      .where('o.tenantId = :tenant AND o.name = :product', {
        tenant: this.tenant.id,
        product: input.product,
      })
      .getRawOne<{ count: string; total: string }>())!;
    return new PromptMessages(`Restock ${input.product}`).user(
      `Draft a${input.urgency === 'urgent' ? 'n urgent' : ''} restock order for "${input.product}". ` +
        `Tenant ${this.tenant.id} has ordered it ${Number(count)} time(s), ${Number(total)} in all. ` +
        'Propose an amount and a short note for the supplier, then create it with orders_create.',
    );
  }

  /** The tenant's products (the names of its orders) that start with what was typed. */
  @Complete('draft-restock-order', 'product')
  async products(request: CompletionRequest): Promise<string[]> {
    const rows = await this.txHost.tx
      .getRepository(Order)
      .createQueryBuilder('o')
      .select('DISTINCT o.name', 'name')
      .where('o.tenantId = :tenant AND LOWER(o.name) LIKE :prefix', {
        tenant: this.tenant.id,
        prefix: `${likePattern(request.value.toLowerCase())}%`,
      })
      .orderBy('o.name')
      .limit(COMPLETION_LOOKUP)
      .getRawMany<{ name: string }>();
    return rows.map((row) => row.name);
  }

  /** The ids of the tenant's orders that start with what was typed. */
  @Complete('orders.get', 'id')
  async orderIds(request: CompletionRequest): Promise<string[]> {
    const rows = await this.txHost.tx
      .getRepository(Order)
      .createQueryBuilder('o')
      .select('o.id', 'id')
      .where(
        'o.tenantId = :tenant AND CAST(o.id AS VARCHAR(12)) LIKE :prefix',
        {
          tenant: this.tenant.id,
          prefix: `${likePattern(request.value)}%`,
        },
      )
      .orderBy('o.id')
      .limit(COMPLETION_LOOKUP)
      .getRawMany<{ id: number }>();
    return rows.map((row) => String(row.id));
  }
}

/** `typed` with LIKE's wildcards escaped. */
function likePattern(typed: string): string {
  return typed.replace(/[\\%_]/g, (c) => `\\${c}`);
}
