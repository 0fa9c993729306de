import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { McpModule, McpServerLifecycleModule } from '@nestops/mcp';
import { AcceptLanguageResolver, I18nModule } from 'nestjs-i18n';
import { join } from 'node:path';
import { UnitOfWorkModule } from '@nestops/typeorm';
import { ApiKeyGuard } from './auth/api-key.guard';
import { TenantGuard } from './auth/tenant.guard';
import { databaseOptions } from './database/database.options';
import { lifecycleOptions, mcpOptions } from './mcp.options';
import { OrdersModule } from './orders/orders.module';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({ useFactory: () => databaseOptions() }),
    // The app's message catalogue: the Chinese tool titles and descriptions
    // (`src/i18n/zh-CN/orders.json`; the English ones are the operations'
    // own), property descriptions (`src/i18n/zh-CN/dto.json`) and, through
    // it, the caller's language for every failure text.
    I18nModule.forRoot({
      fallbackLanguage: 'en-US',
      loaderOptions: { path: join(__dirname, 'i18n'), watch: false },
      resolvers: [AcceptLanguageResolver],
    }),
    UnitOfWorkModule.forRoot(),
    // Options from the environment (`src/mcp.options.ts`): API keys, or
    // OAuth mode with OAUTH_ISSUER.
    McpModule.forRootAsync({ useFactory: () => mcpOptions() }),
    OrdersModule,
    // Readiness, and no lost request when an instance restarts behind a
    // load balancer (src/mcp.options.ts: SHUTDOWN_DRAIN_DELAY). Last, so that
    // it drains before the other imports' onModuleDestroy hooks.
    McpServerLifecycleModule.forRoot(lifecycleOptions()),
  ],
  providers: [
    {
      // OAUTH_VERIFIER=passport: the app's own verifier of bearer tokens,
      // which registers itself with passport. Loaded only in that mode, so
      // API-key mode and the command line never load passport-jwt and
      // jwks-rsa.
      provide: 'OAUTH_JWT_STRATEGY',
      useFactory: async () => {
        const issuer = process.env.OAUTH_ISSUER;
        if (!issuer || process.env.OAUTH_VERIFIER !== 'passport') {
          return undefined;
        }
        const { OAuthJwtStrategy } =
          await import('./auth/oauth-jwt.strategy.js');
        return new OAuthJwtStrategy(issuer, mcpOptions().oauth?.resource ?? '');
      },
    },
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: TenantGuard },
  ],
})
export class AppModule {}
