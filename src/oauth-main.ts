import { startAuthorizationServer } from './oauth-server/authorization-server';

/**
 * `npm run start:oauth`: the sample's authorization server (oidc-provider,
 * on 127.0.0.1:`OAUTH_PORT`, default 3001), then the sample in OAuth mode
 * beside it (on `PORT`, default 3000), its endpoint a protected resource
 * of that server.
 */
async function startWithOAuth(): Promise<void> {
  const port = process.env.PORT ?? '3000';
  const resource = process.env.MCP_RESOURCE ?? `http://127.0.0.1:${port}/mcp`;
  const server = await startAuthorizationServer(
    resource,
    Number(process.env.OAUTH_PORT ?? 3001),
  );
  process.env.OAUTH_ISSUER = server.issuer;
  process.env.MCP_RESOURCE = resource;
  console.log(
    `Authorization server at ${server.issuer} (sign in as alice/alice or bob/bob)`,
  );
  await import('./main.js');
}

void startWithOAuth();
