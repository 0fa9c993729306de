import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
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
  ],
  exports: [OperationRegistry, OperationInvoker],
})
export class OperationsModule {}
