import type {
  ApplicationConfig,
  ExternalContextCreator,
  ModuleRef,
} from '@nestjs/core';
import { OperationAuthorizationGuard } from '../../authorization/operation-authorization.guard.js';
import type { PermissionsOf } from '../../authorization/principal-permissions.js';
import {
  assertNestInternals,
  nestPipesOf,
  scopedGlobalEnhancers,
  separateContextCreator,
} from '../../nest/nest-context.adapter.js';
import type { PipelineServices } from './pipeline-parts.js';

/**
 * What every operation's pipeline shares, made once after Nest's internals
 * it reads are checked: the context creators, the pipes, the permission
 * check and the app's global enhancers.
 */
export function createPipelineServices(
  contextCreator: ExternalContextCreator,
  moduleRef: ModuleRef,
  config: ApplicationConfig,
  permissionsOf: PermissionsOf | undefined,
): PipelineServices {
  assertNestInternals(contextCreator, moduleRef, config);
  return {
    contextCreator,
    paramsContextCreator: separateContextCreator(contextCreator),
    pipes: nestPipesOf(contextCreator),
    authorization: new OperationAuthorizationGuard(permissionsOf),
    scopedEnhancers: scopedGlobalEnhancers(config),
    globalFilters:
      config.getGlobalFilters().length > 0 ||
      config.getGlobalRequestFilters().length > 0,
  };
}
