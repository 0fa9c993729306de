import { Injectable } from '@nestjs/common';
import { McpContent, McpResult } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import { OrderIdDto } from './dto/order-id.dto';
import { OrderDto } from './dto/order.dto';
import { orderLabelPng } from './label.png';
import { OrdersService } from './orders.service';

/** The delivery label of an order: the order as JSON, with its label as a PNG beside it. */
@Injectable()
export class OrderLabelsService {
  constructor(private readonly orders: OrdersService) {}

  @Operation({
    id: 'orders.label',
    title: 'Print a delivery label',
    description:
      "Returns one order of the caller's tenant by its id, as orders.get does, with its delivery label beside it: a PNG image whose bars are the order id's bits. Fails with BUSINESS_NOTFOUND_001 when the tenant has no such order. Needs the orders.read permission.",
    readOnly: true,
    permission: 'orders.read',
    output: OrderDto,
  })
  async label(input: OrderIdDto): Promise<McpResult<OrderDto>> {
    const order = await this.orders.get(input);
    return McpResult.of(
      order,
      McpContent.image(orderLabelPng(order.id), 'image/png'),
    );
  }
}
