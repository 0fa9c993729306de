import type { Type } from '@nestjs/common';
import type { McpModuleOptions, McpOAuthOptions } from '@nestops/mcp';
import { NOTES_RESOURCE, oauthNotesModule } from '../fixtures/oauth-fixtures';
import { startTokenIssuer, type TokenIssuer } from './token-issuer';
import { startApp, type RunningApp } from './start-app';

/**
 * A token issuer for the notes resource and the notes app in OAuth mode
 * trusting it, started before the file's tests and closed after them.
 */
export function useOAuthNotesApp(
  oauth: Partial<McpOAuthOptions>,
  options: McpModuleOptions,
  service: Type<unknown>,
): { issuer: () => TokenIssuer; app: () => RunningApp } {
  let issuer: TokenIssuer | undefined;
  let app: RunningApp | undefined;
  beforeAll(async () => {
    issuer = await startTokenIssuer(NOTES_RESOURCE);
    app = await startApp(
      oauthNotesModule(issuer.issuer, oauth, options, service),
    );
  });
  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });
  return { issuer: () => issuer!, app: () => app! };
}
