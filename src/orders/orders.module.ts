import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CurrentTenant } from './current-tenant';
import { Order } from './order.entity';
import { OrderDeliveryService } from './order-delivery.service';
import { OrderDescriptionsService } from './order-descriptions.service';
import { OrderLabelsService } from './order-labels.service';
import { OrderReportsService } from './order-reports.service';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';
import { OrderPromptsService } from './order-prompts.service';

@Module({
  imports: [TypeOrmModule.forFeature([Order])],
  controllers: [OrdersController],
  providers: [
    CurrentTenant,
    OrdersService,
    OrderPromptsService,
    OrderLabelsService,
    OrderDeliveryService,
    OrderDescriptionsService,
    OrderReportsService,
  ],
})
export class OrdersModule {}
