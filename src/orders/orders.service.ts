import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Operation } from '@nestops/operations';
import { MoreThanOrEqual, Raw, Repository } from 'typeorm';
import { CurrentTenant } from './current-tenant';
import { CreateOrderDto } from './dto/create-order.dto';
import { DeletedOrderDto } from './dto/deleted-order.dto';
import { OrderIdDto } from './dto/order-id.dto';
import { OrderListDto } from './dto/order-list.dto';
import { OrderDto } from './dto/order.dto';
import { SearchOrder, SearchOrdersDto } from './dto/search-orders.dto';
import { Order } from './order.entity';

@Injectable()
export class OrdersService {
  constructor(
    @InjectRepository(Order) private readonly orders: Repository<Order>,
    private readonly tenant: CurrentTenant,
  ) {}

  @Operation({
    id: 'orders.create',
    permission: 'orders.write',
    output: OrderDto,
  })
  async create(input: CreateOrderDto): Promise<OrderDto> {
    const order = this.orders.create({ ...input, tenantId: this.tenant.id });
    return OrderDto.from(await this.orders.save(order));
  }

  @Operation({
    id: 'orders.list',
    permission: 'orders.read',
    output: OrderListDto,
  })
  async list(): Promise<OrderListDto> {
    const orders = await this.orders.find({
      where: { tenantId: this.tenant.id },
      order: { id: 'ASC' },
    });
    return { items: orders.map((order) => OrderDto.from(order)) };
  }

  @Operation({ id: 'orders.get', permission: 'orders.read', output: OrderDto })
  async get(input: OrderIdDto): Promise<OrderDto> {
    return OrderDto.from(await this.find(input.id));
  }

  @Operation({
    id: 'orders.delete',
    permission: 'orders.write',
    output: DeletedOrderDto,
  })
  async delete(input: OrderIdDto): Promise<DeletedOrderDto> {
    await this.orders.remove(await this.find(input.id));
    return { id: input.id, deleted: true };
  }

  @Operation({
    id: 'orders.search',
    permission: 'orders.read',
    readOnly: true,
    output: OrderListDto,
  })
  async search(input: SearchOrdersDto): Promise<OrderListDto> {
    const orders = await this.orders.find({
      where: {
        tenantId: this.tenant.id,
        ...(input.nameContains ? { name: containing(input.nameContains) } : {}),
        ...(input.minAmount
          ? { amount: MoreThanOrEqual(input.minAmount) }
          : {}),
      },
      order: { id: input.order === SearchOrder.Newest ? 'DESC' : 'ASC' },
      take: input.limit ?? 20,
    });
    return { items: orders.map((order) => OrderDto.from(order)) };
  }

  private async find(id: number): Promise<Order> {
    const order = await this.orders.findOneBy({ id, tenantId: this.tenant.id });
    if (!order) {
      throw new NotFoundException(`Order ${id} does not exist.`);
    }
    return order;
  }
}

/** Case-insensitive substring match, with `%` and `_` taken literally. */
function containing(text: string) {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return Raw((column) => `LOWER(${column}) LIKE :pattern ESCAPE '\\'`, {
    pattern,
  });
}
