import { Body, Controller, Get, Post, Query, UsePipes } from '@nestjs/common';
import { RequirePermissions } from '../auth/require-permissions.decorator';
import { SafeTextPipe } from '../safe-text.pipe';
import { CreateOrderDto } from './dto/create-order.dto';
import { ListOrdersQueryDto } from './dto/list-orders.dto';
import { OrderListDto } from './dto/order-list.dto';
import { OrderDto } from './dto/order.dto';
import { OrdersService } from './orders.service';

/**
 * The same operations as plain REST routes, behind the same `ApiKeyGuard`;
 * `GET /orders?limit=&cursor=` pages as `orders.list` does. Text with NUL
 * or a lone surrogate is a 400, as the MCP tools refuse it.
 */
@Controller('orders')
@UsePipes(SafeTextPipe)
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post()
  @RequirePermissions('orders.write')
  create(@Body() input: CreateOrderDto): Promise<OrderDto> {
    return this.orders.create(input);
  }

  @Get()
  @RequirePermissions('orders.read')
  list(@Query() query: ListOrdersQueryDto): Promise<OrderListDto> {
    return this.orders.list(query);
  }
}
