import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OperationMessages } from './i18n/operation-messages';
import { OperationMetadataAccessor } from './operation-metadata.accessor';
import { OperationInvoker } from './operation.invoker';
import { OperationRegistry } from './operation.registry';
import { OperationsExplorer } from './operations.explorer';

/**
 * Discovers the application's `@Operation()` methods at bootstrap. Carrier
 * modules (`McpModule`) import it; an application rarely needs to.
 *
 * @publicApi
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    OperationMetadataAccessor,
    OperationsExplorer,
    OperationRegistry,
    OperationInvoker,
    OperationMessages,
  ],
  exports: [OperationRegistry, OperationInvoker, OperationMessages],
})
export class OperationsModule {}
