import { Body, Controller, Get, Post, Query, UsePipes } from '@nestjs/common';
import { SafeInputPipe } from '@nestops/operations';
import { RequirePermissions } from '../auth/require-permissions.decorator';
import { CreateOrderDto } from './dto/create-order.dto';
import { ListOrdersQueryDto } from './dto/list-orders.dto';
import { OrderListDto } from './dto/order-list.dto';
import { OrderDto } from './dto/order.dto';
import { OrdersService } from './orders.service';

/**
 * The same operations as plain REST routes, behind the same `ApiKeyGuard`;
 * `GET /orders?limit=&cursor=` pages as `orders.list` does. The input
 * rules of the MCP tools hold here too (`SafeInputPipe`): text with NUL or a
 * lone surrogate is a 400.
 */
@Controller('orders')
@UsePipes(SafeInputPipe)
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
