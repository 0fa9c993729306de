import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  Module,
  UnauthorizedException,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { McpModule } from '@nestops/mcp';
import { ArticlesService } from '../recipes/casl/casl/articles.service';
import { CaslAbilityFactory, type User } from '../recipes/casl/casl/policies';
import { mcpHttp } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/**
 * NestJS's CASL recipe (an ability per user, `@CheckPolicies` read by a
 * `PoliciesGuard` on the method) on operations: tool calls are allowed and
 * refused by the same policies, and a refused one changes nothing. The
 * policies and the service are the recipe's files, as docs/recipes/casl.md
 * shows them.
 */

const USERS: Record<string, User> = {
  'ApiKey ada-key': { id: 'ada', isAdmin: true },
  'ApiKey bob-key': { id: 'bob', isAdmin: false },
};

/** Sets `request.user` from the API key (global: it runs for calls too). */
@Injectable()
class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{
      headers: Record<string, string | undefined>;
      user?: User;
    }>();
    const user = USERS[request.headers.authorization ?? ''];
    if (!user) {
      throw new UnauthorizedException();
    }
    request.user = user;
    return true;
  }
}

@Module({
  imports: [McpModule.forRoot({ serverName: 'articles' })],
  providers: [
    CaslAbilityFactory,
    ArticlesService,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
  ],
})
class ArticlesModule {}

const ADA = { authorization: 'ApiKey ada-key' };
const BOB = { authorization: 'ApiKey bob-key' };

describe('NestJS CASL policies on operations', () => {
  const running = useApp(() => startApp(ArticlesModule));
  const articles = () => running().app.get(ArticlesService).articles;

  it('runs @CheckPolicies for calls: anyone reads, only a manager purges', async () => {
    const mcp = mcpHttp(running().baseUrl);

    const counted = await mcp.callTool('articles_count', {}, BOB);
    const refused = await mcp.callTool('articles_purge', {}, BOB);

    expect(counted).toMatchObject({ structuredContent: { count: 3 } });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toBe('SECURITY_DENIED_001: Access denied.');
    expect(articles().size).toBe(3);
  });

  it('checks the ability on the instance: bob deletes his draft, not his published article nor carol’s', async () => {
    const mcp = mcpHttp(running().baseUrl);

    const published = await mcp.callTool('articles_delete', { id: 2 }, BOB);
    const carols = await mcp.callTool('articles_delete', { id: 3 }, BOB);
    const draft = await mcp.callTool('articles_delete', { id: 1 }, BOB);

    expect(published).toMatchObject({
      isError: true,
      content: [
        { text: expect.stringContaining('You may not delete article 2.') },
      ],
    });
    expect(carols).toMatchObject({
      isError: true,
      content: [
        { text: expect.stringContaining('You may not delete article 3.') },
      ],
    });
    expect(draft).toMatchObject({
      structuredContent: { id: 1, deleted: true },
    });
    expect([...articles().keys()]).toEqual([2, 3]);
  });

  it('lets the admin purge', async () => {
    const purged = await mcpHttp(running().baseUrl).callTool(
      'articles_purge',
      {},
      ADA,
    );

    expect(purged).toMatchObject({ structuredContent: { purged: 2 } });
    expect(articles().size).toBe(0);
  });
});
