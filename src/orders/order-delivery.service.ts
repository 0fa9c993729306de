import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import {
  type InvocationContext,
  Operation,
  OperationException,
} from '@nestops/operations';
import { I18nService } from 'nestjs-i18n';
import { CurrentTenant } from './current-tenant';
import {
  type DeliverySlot,
  DeliverySlotDto,
  ScheduleDeliveryDto,
  ScheduledDeliveryDto,
} from './dto/delivery-slot.dto';
import { Order } from './order.entity';
import { notFound, OrdersService } from './orders.service';

/** Delivery slots: the one an order is delivered in, asked of the user when the input names none. */
@Injectable()
export class OrderDeliveryService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly tenant: CurrentTenant,
    private readonly orders: OrdersService,
    private readonly i18n: I18nService,
  ) {}

  @Operation({
    id: 'orders.schedule-delivery',
    title: 'Schedule a delivery',
    description:
      "Schedules the delivery of one order of the caller's tenant in a slot: morning, afternoon or evening. Without slot, the user is asked to choose one (BUSINESS_DECLINED_001 or _002 when they decline or cancel). Returns the order's id and its slot. Fails with BUSINESS_NOTFOUND_001 when the tenant has no such order. Needs the orders.write permission.",
    permission: 'orders.write',
    output: ScheduledDeliveryDto,
    // Setting the slot again changes nothing more; it overwrites no data.
    destructive: false,
    idempotent: true,
    elicits: [DeliverySlotDto],
    // No transaction held open while the user chooses: the one write is an
    // UPDATE of its own.
    transaction: false,
  })
  async scheduleDelivery(
    input: ScheduleDeliveryDto,
    context: InvocationContext,
  ): Promise<ScheduledDeliveryDto> {
    // Not found before anyone is asked.
    const order = await this.orders.get({ id: input.id });
    const slot = input.slot ?? (await this.askSlot(order, context));
    const { affected } = await this.txHost.tx
      .getRepository(Order)
      .update(
        { id: order.id, tenantId: this.tenant.id },
        { deliverySlot: slot },
      );
    if (affected !== 1) {
      // Deleted while the user was choosing.
      throw notFound(order.id);
    }
    return { id: order.id, slot };
  }

  /** The slot the user picks in the caller's language; a refusal fails the call. */
  private async askSlot(
    order: { id: number; name: string },
    context: InvocationContext,
  ): Promise<DeliverySlot> {
    const text = (key: string) =>
      this.i18n.t(`orders.schedule-delivery.${key}`, {
        lang: context.locale,
        args: { id: order.id, name: order.name },
      });
    const answer = await context.elicit(DeliverySlotDto, text('ask'), {
      key: 'slot',
    });
    if (answer.action === 'accept') {
      return answer.content.slot;
    }
    throw new OperationException(
      answer.action === 'decline'
        ? 'BUSINESS_DECLINED_001'
        : 'BUSINESS_DECLINED_002',
      { operation: text('declined') },
    );
  }
}
