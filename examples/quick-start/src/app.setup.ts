import type { INestApplication } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard.js';

/** What main.ts applies to the app, and the command line too (runCli's setup). */
export function setupApp(app: INestApplication): void {
  app.useGlobalGuards(new ApiKeyGuard());
}
