import { BadRequestException, Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import {
  type InvocationContext,
  Operation,
  OperationException,
} from '@nestops/operations';
import {
  LessThan,
  MoreThan,
  MoreThanOrEqual,
  Raw,
  type FindOptionsWhere,
  type Repository,
} from 'typeorm';
import { CurrentTenant } from './current-tenant';
import { CreateOrderDto } from './dto/create-order.dto';
import { DeletedOrderDto } from './dto/deleted-order.dto';
import { ImportedOrdersDto, ImportOrdersDto } from './dto/import-orders.dto';
import { DEFAULT_PAGE_LIMIT, ListOrdersDto } from './dto/list-orders.dto';
import { decodeOrderCursor, encodeOrderCursor } from './dto/order-cursor';
import { OrderIdDto } from './dto/order-id.dto';
import { OrderListDto } from './dto/order-list.dto';
import { OrderDto } from './dto/order.dto';
import { SearchOrder, SearchOrdersDto } from './dto/search-orders.dto';
import { INTEGER_COLUMN_MAX, Order } from './order.entity';

/**
 * The orders of the current tenant. Every query goes through the call's
 * transaction (`TransactionHost#tx`): the one the transaction interceptor
 * opened for a mutating call, the data source's manager for a read-only one.
 */
/** How many orders an import creates between two progress reports. */
const IMPORT_PROGRESS_EVERY = 10;
/** How many orders `orders.recent` returns. */
const RECENT_ORDERS = 10;

@Injectable()
export class OrdersService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly tenant: CurrentTenant,
  ) {}

  /** The orders table, through the call's transaction. */
  private get orders(): Repository<Order> {
    return this.txHost.tx.getRepository(Order);
  }

  @Operation({
    id: 'orders.create',
    title: 'Create an order',
    description:
      "Creates an order in the caller's tenant from a name (1 to 200 characters) and a whole-number amount of at least 1. Returns the new order with its id, tenant, name, amount and createdAt. Needs the orders.write permission.",
    permission: 'orders.write',
    output: OrderDto,
  })
  async create(input: CreateOrderDto): Promise<OrderDto> {
    const order = this.orders.create({ ...input, tenantId: this.tenant.id });
    return OrderDto.from(await this.orders.save(order));
  }

  @Operation({
    id: 'orders.import',
    title: 'Import orders',
    description:
      "Creates 1 to 1000 orders in the caller's tenant in one go, all or none: each needs a name (1 to 200 characters) and a whole-number amount of at least 1. Reports its progress, and a debug log message with the new ids, every 10 orders when the client asks for them; a cancelled import creates nothing. Returns created (the count) and the new orders' ids in the order given. Needs the orders.write permission.",
    permission: 'orders.write',
    output: ImportedOrdersDto,
    task: 'optional',
  })
  async import(
    input: ImportOrdersDto,
    context: InvocationContext,
  ): Promise<ImportedOrdersDto> {
    const total = input.orders.length;
    const ids: number[] = [];
    for (const order of input.orders) {
      // Cancelled or past its deadline: stop, and the transaction rolls back.
      context.signal.throwIfAborted();
      const saved = await this.orders.save(
        this.orders.create({ ...order, tenantId: this.tenant.id }),
      );
      ids.push(saved.id);
      if (ids.length % IMPORT_PROGRESS_EVERY === 0 || ids.length === total) {
        const first = ids.length - ((ids.length - 1) % IMPORT_PROGRESS_EVERY);
        context.log('debug', `orders ${first} to ${ids.length} saved`, {
          ids: ids.slice(first - 1),
        });
        context.reportProgress(
          ids.length,
          total,
          `${ids.length} of ${total} orders created`,
        );
        // SQLite's driver is synchronous: without a turn of the event loop
        // the progress would not go out, nor a cancellation come in, until
        // the whole import is done.
        await new Promise((turn) => setImmediate(turn));
      }
    }
    return { created: ids.length, ids };
  }

  @Operation({
    id: 'orders.list',
    title: 'List orders',
    description:
      "Lists the orders of the caller's tenant, oldest first, one page at a time: up to limit orders (1 to 100, default 50); pass the nextCursor of a page as cursor to get the next one. Returns items and, when more orders follow, nextCursor. Needs the orders.read permission.",
    permission: 'orders.read',
    output: OrderListDto,
  })
  async list(input: ListOrdersDto): Promise<OrderListDto> {
    return this.page(input, { tenantId: this.tenant.id }, 'ASC');
  }

  @Operation({
    id: 'orders.get',
    title: 'Get an order',
    description:
      "Returns one order of the caller's tenant by its id (id, tenant, name, amount, createdAt). Fails with BUSINESS_NOTFOUND_001 when the tenant has no such order. Needs the orders.read permission.",
    permission: 'orders.read',
    output: OrderDto,
    // Also a resource template: resources/read of orders://42 runs this.
    resource: 'orders://{id}',
  })
  async get(input: OrderIdDto): Promise<OrderDto> {
    return OrderDto.from(await this.find(input.id));
  }

  @Operation({
    id: 'orders.recent',
    title: 'Recent orders',
    description:
      "Returns the 10 newest orders of the caller's tenant, newest first, as items. Needs the orders.read permission.",
    permission: 'orders.read',
    readOnly: true,
    input: null,
    output: OrderListDto,
    resource: 'orders://recent',
  })
  async recent(): Promise<OrderListDto> {
    const orders = await this.orders.find({
      where: { tenantId: this.tenant.id },
      order: { id: 'DESC' },
      take: RECENT_ORDERS,
    });
    return { items: orders.map((order) => OrderDto.from(order)) };
  }

  @Operation({
    id: 'orders.delete',
    title: 'Delete an order',
    description:
      "Deletes one order of the caller's tenant by its id and returns {id, deleted: true}. It cannot be undone, so the user is asked to confirm it first: BUSINESS_DECLINED_001 or _002 when they decline or cancel, SECURITY_CONFIRMATION_001 when the client cannot ask them. Fails with BUSINESS_NOTFOUND_001 when the tenant has no such order. Needs the orders.write permission.",
    permission: 'orders.write',
    output: DeletedOrderDto,
    // The user confirms each call (the catalogue's orders.delete.confirm)
    // before the method runs.
    confirm: true,
  })
  async delete(input: OrderIdDto): Promise<DeletedOrderDto> {
    // Deleted only if this call removed the row: of calls deleting one
    // order at once, the others find nothing left to delete.
    const { affected } = await this.orders.delete({
      id: (await this.find(input.id)).id,
      tenantId: this.tenant.id,
    });
    if (affected !== 1) {
      throw notFound(input.id);
    }
    return { id: input.id, deleted: true };
  }

  @Operation({
    id: 'orders.search',
    title: 'Search orders',
    description:
      "Finds the orders of the caller's tenant whose name contains nameContains (case-insensitive) and whose amount is at least minAmount, oldest or newest first (order), paged like orders_list with limit and cursor. Every filter is optional. Returns items and, when more follow, nextCursor. Needs the orders.read permission.",
    permission: 'orders.read',
    readOnly: true,
    output: OrderListDto,
  })
  async search(input: SearchOrdersDto): Promise<OrderListDto> {
    return this.page(
      input,
      {
        tenantId: this.tenant.id,
        ...(input.nameContains ? { name: containing(input.nameContains) } : {}),
        ...(input.minAmount
          ? { amount: MoreThanOrEqual(input.minAmount) }
          : {}),
      },
      input.order === SearchOrder.Newest ? 'DESC' : 'ASC',
    );
  }

  /**
   * Up to `limit` orders matching `where`, in id (creation) order, after the
   * cursor's order; with a `nextCursor` when more follow.
   */
  private async page(
    input: ListOrdersDto,
    where: FindOptionsWhere<Order>,
    direction: 'ASC' | 'DESC',
  ): Promise<OrderListDto> {
    // null is absent, as @IsOptional() has it
    const limit = input.limit ?? DEFAULT_PAGE_LIMIT;
    const cursor = input.cursor;
    const after = cursor == null ? undefined : decodeOrderCursor(cursor);
    if (cursor != null && after === undefined) {
      throw new BadRequestException('cursor is not valid');
    }
    const orders = await this.orders.find({
      where:
        after === undefined
          ? where
          : {
              ...where,
              id: direction === 'ASC' ? MoreThan(after) : LessThan(after),
            },
      order: { id: direction },
      take: limit + 1, // one more tells whether a next page exists
    });
    const items = orders.slice(0, limit).map((order) => OrderDto.from(order));
    return orders.length > limit
      ? { items, nextCursor: encodeOrderCursor(items[items.length - 1].id) }
      : { items };
  }

  private async find(id: number): Promise<Order> {
    // An id beyond the column's range names no order; PostgreSQL would
    // refuse it as a parameter, so the database is not asked.
    const order =
      id <= INTEGER_COLUMN_MAX
        ? await this.orders.findOneBy({ id, tenantId: this.tenant.id })
        : null;
    if (!order) {
      throw notFound(id);
    }
    return order;
  }
}

/** The sample's own message key, translated with the order's id. */
export function notFound(id: number): OperationException {
  return new OperationException(
    'BUSINESS_NOTFOUND_001',
    { id, detail: `Order ${id} does not exist.` },
    { key: 'orders.errors.not_found' },
  );
}

/** Case-insensitive substring match, with `%` and `_` taken literally. */
function containing(text: string) {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return Raw((column) => `LOWER(${column}) LIKE :pattern ESCAPE '\\'`, {
    pattern,
  });
}
