// src/casl/articles.service.ts
import { ForbiddenException, Injectable, UseGuards } from '@nestjs/common';
import { type InvocationContext, Operation } from '@nestops/operations';
import { IsInt } from 'class-validator';
import {
  Article,
  CaslAbilityFactory,
  CheckPolicies,
  PoliciesGuard,
  type User,
} from './policies';

export class ArticleIdDto {
  @IsInt()
  id: number;
}

@Injectable()
export class ArticlesService {
  readonly articles = new Map<number, Article>([
    [1, new Article(1, 'bob', false)],
    [2, new Article(2, 'bob', true)],
    [3, new Article(3, 'carol', false)],
  ]);

  constructor(private readonly abilities: CaslAbilityFactory) {}

  @Operation({ id: 'articles.count', input: null, readOnly: true })
  @UseGuards(PoliciesGuard)
  @CheckPolicies((ability) => ability.can('read', Article))
  count(): { count: number } {
    return { count: this.articles.size };
  }

  @Operation({ id: 'articles.purge', input: null })
  @UseGuards(PoliciesGuard)
  @CheckPolicies((ability) => ability.can('manage', 'all'))
  purge(): { purged: number } {
    const purged = this.articles.size;
    this.articles.clear();
    return { purged };
  }

  /** A check on one article goes in the method. */
  @Operation({ id: 'articles.delete' })
  delete(
    { id }: ArticleIdDto,
    context: InvocationContext,
  ): { id: number; deleted: true } {
    const article = this.articles.get(id);
    const user = context.principal as User;
    if (
      !article ||
      !this.abilities.createForUser(user).can('delete', article)
    ) {
      throw new ForbiddenException(`You may not delete article ${id}.`);
    }
    this.articles.delete(id);
    return { id, deleted: true };
  }
}
