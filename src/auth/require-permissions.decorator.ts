import { SetMetadata } from '@nestjs/common';

export const PERMISSIONS_METADATA = 'sample:permissions';

/** Permissions a REST route needs; checked by `ApiKeyGuard`. */
export const RequirePermissions = (...permissions: string[]) =>
  SetMetadata(PERMISSIONS_METADATA, permissions);
