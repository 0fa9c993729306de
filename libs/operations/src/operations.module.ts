import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OperationMessages } from './i18n/operation-messages.js';
import { OperationTexts } from './i18n/operation-texts.js';
import { OperationMetadataAccessor } from './operation-metadata.accessor.js';
import { OperationInvoker } from './operation.invoker.js';
import { OperationRegistry } from './operation.registry.js';
import { OperationsExplorer } from './operations.explorer.js';

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
    OperationTexts,
  ],
  exports: [
    OperationRegistry,
    OperationInvoker,
    OperationMessages,
    OperationTexts,
  ],
})
export class OperationsModule {}
