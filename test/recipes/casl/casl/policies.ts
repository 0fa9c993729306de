// src/casl/policies.ts
import {
  AbilityBuilder,
  createMongoAbility,
  type ExtractSubjectType,
  type InferSubjects,
  type MongoAbility,
} from '@casl/ability';
import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';

export class Article {
  constructor(
    readonly id: number,
    readonly authorId: string,
    readonly isPublished: boolean,
  ) {}
}

/** The `request.user` the app's authentication sets. */
export interface User {
  id: string;
  isAdmin: boolean;
}

type Subjects = InferSubjects<typeof Article> | 'all';
export type AppAbility = MongoAbility<[string, Subjects]>;

@Injectable()
export class CaslAbilityFactory {
  createForUser(user: User): AppAbility {
    const { can, cannot, build } = new AbilityBuilder<AppAbility>(
      createMongoAbility,
    );
    if (user.isAdmin) {
      can('manage', 'all');
    } else {
      can('read', 'all');
    }
    can('delete', Article, { authorId: user.id });
    cannot('delete', Article, { isPublished: true });
    return build({
      detectSubjectType: (item) =>
        item.constructor as ExtractSubjectType<Subjects>,
    });
  }
}

type PolicyHandler = (ability: AppAbility) => boolean;
const CHECK_POLICIES_KEY = 'check_policy';
export const CheckPolicies = (...handlers: PolicyHandler[]) =>
  SetMetadata(CHECK_POLICIES_KEY, handlers);

@Injectable()
export class PoliciesGuard implements CanActivate {
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
