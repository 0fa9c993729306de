import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { McpModule } from '@nestops/mcp';
import { UnitOfWorkModule } from '@nestops/typeorm';
import { ApiKeyGuard } from './auth/api-key.guard';
import { TenantGuard } from './auth/tenant.guard';
import { databaseOptions } from './database/database.options';
import { OrdersModule } from './orders/orders.module';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({ useFactory: () => databaseOptions() }),
    UnitOfWorkModule.forRoot(),
    McpModule.forRoot({ instructions: 'Order desk', authGuard: ApiKeyGuard }),
    OrdersModule,
  ],
  providers: [
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: TenantGuard },
  ],
})
export class AppModule {}
