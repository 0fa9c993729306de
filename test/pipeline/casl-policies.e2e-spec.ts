import {
  AbilityBuilder,
  createMongoAbility,
  type ExtractSubjectType,
  type InferSubjects,
  type MongoAbility,
} from '@casl/ability';
import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  Module,
  SetMetadata,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { McpModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import { IsInt } from 'class-validator';
import { mcpHttp } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/**
 * NestJS's CASL recipe (an ability per user, `@CheckPolicies` read by a
 * `PoliciesGuard` on the method) on operations: tool calls are allowed and
 * refused by the same policies, and a refused one changes nothing.
 */

enum Action {
  Manage = 'manage',
  Read = 'read',
  Delete = 'delete',
}

class Article {
  constructor(
    readonly id: number,
    readonly authorId: string,
    readonly isPublished: boolean,
  ) {}
}

interface User {
  id: string;
  isAdmin: boolean;
}

type Subjects = InferSubjects<typeof Article> | 'all';
type AppAbility = MongoAbility<[Action, Subjects]>;

@Injectable()
class CaslAbilityFactory {
  createForUser(user: User): AppAbility {
    const { can, cannot, build } = new AbilityBuilder<AppAbility>(
      createMongoAbility,
    );
    if (user.isAdmin) {
      can(Action.Manage, 'all');
    } else {
      can(Action.Read, 'all');
    }
    can(Action.Delete, Article, { authorId: user.id });
    cannot(Action.Delete, Article, { isPublished: true });
    return build({
      detectSubjectType: (item) =>
        item.constructor as ExtractSubjectType<Subjects>,
    });
  }
}

type PolicyHandler = (ability: AppAbility) => boolean;
const CHECK_POLICIES_KEY = 'check_policy';
const CheckPolicies = (...handlers: PolicyHandler[]) =>
  SetMetadata(CHECK_POLICIES_KEY, handlers);

@Injectable()
class PoliciesGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly abilities: CaslAbilityFactory,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const handlers =
      this.reflector.get<PolicyHandler[]>(
        CHECK_POLICIES_KEY,
        context.getHandler(),
      ) ?? [];
    const { user } = context.switchToHttp().getRequest<{ user: User }>();
    const ability = this.abilities.createForUser(user);
    return handlers.every((handler) => handler(ability));
  }
}

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

const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext): User =>
    context.switchToHttp().getRequest<{ user: User }>().user,
);

class ArticleIdDto {
  @IsInt()
  id!: number;
}

@Injectable()
class ArticlesService {
  readonly articles = new Map<number, Article>([
    [1, new Article(1, 'bob', false)],
    [2, new Article(2, 'bob', true)],
    [3, new Article(3, 'carol', false)],
  ]);

  constructor(private readonly abilities: CaslAbilityFactory) {}

  @Operation({ id: 'articles.count', input: null, readOnly: true })
  @UseGuards(PoliciesGuard)
  @CheckPolicies((ability) => ability.can(Action.Read, Article))
  count(): { count: number } {
    return { count: this.articles.size };
  }

  @Operation({ id: 'articles.purge', input: null })
  @UseGuards(PoliciesGuard)
  @CheckPolicies((ability) => ability.can(Action.Manage, 'all'))
  purge(): { purged: number } {
    const purged = this.articles.size;
    this.articles.clear();
    return { purged };
  }

  /** The recipe's check on the instance, in the method. */
  @Operation({ id: 'articles.delete' })
  delete(
    { id }: ArticleIdDto,
    _context: unknown,
    @CurrentUser() user: User,
  ): { id: number; deleted: true } {
    const article = this.articles.get(id);
    if (!article) {
      throw new ForbiddenException('No such article.');
    }
    if (!this.abilities.createForUser(user).can(Action.Delete, article)) {
      throw new ForbiddenException(`You may not delete article ${id}.`);
    }
    this.articles.delete(id);
    return { id, deleted: true };
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
