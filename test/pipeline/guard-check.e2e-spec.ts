import type { INestApplication } from '@nestjs/common';
import type { AppSetup } from '@nestops/operations';
import { OperationTestClient } from '@nestops/operations/testing';
import {
  AuditedTokenGuard,
  ClassGuardedNotesService,
  type GuardCheckApp,
  guardCheckApp,
  ManyNotesService,
  MethodGuardedNotesService,
  NotesService,
  PublicNotesService,
  RateGuard,
  TokenGuard,
} from '../fixtures/guard-check-fixtures';
import { createApp } from '../support/start-app';
import { WarningLog } from '../support/warning-log';

/**
 * The startup warning for operations that need a permission and whose calls
 * run without the guard that sets `request.user`: McpModule's `authGuard`
 * not registered for the calls, or no guard at all.
 */

const opened: INestApplication[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

/** The guard warnings of an app made of `parts`, initialised (after `setup`). */
async function guardWarnings(
  parts: GuardCheckApp,
  setup?: AppSetup,
): Promise<string[]> {
  const log = new WarningLog();
  const app = await createApp(guardCheckApp(parts), { logger: log });
  opened.push(app);
  await setup?.(app);
  await app.init();
  return log.warnings.filter(
    (warning) => !warning.includes('without a description'),
  );
}

describe('authGuard without the guard on the calls', () => {
  it('warns, naming the guard, the operations and what to add', async () => {
    const warnings = await guardWarnings({
      authGuard: TokenGuard,
      services: [NotesService],
    });

    expect(warnings).toEqual([
      "McpModule's authGuard TokenGuard does not run on the calls of 1 operation(s) that need a permission (notes.create): a caller it lets through at the endpoint reaches them without request.user and is refused with SECURITY_DENIED_003. Register it for every call: { provide: APP_GUARD, useClass: TokenGuard } in a module's providers, or app.useGlobalGuards() in the setup function that main.ts applies and runCli's setup option (and createTestApplication) take; or @UseGuards(TokenGuard) on those operations.",
    ]);
  });

  it('is right: alice is refused with SECURITY_DENIED_003 in that app', async () => {
    const app = await createApp(
      guardCheckApp({ authGuard: TokenGuard, services: [NotesService] }),
    );
    opened.push(app);
    await app.init();

    expect(
      await OperationTestClient.create(app, {
        headers: { Authorization: 'Bearer alice-token' },
      }).invoke('notes.create'),
    ).toMatchObject({ ok: false, failure: { code: 'SECURITY_DENIED_003' } });
  });

  it('warns when another guard runs, but not the authGuard', async () => {
    const warnings = await guardWarnings({
      authGuard: TokenGuard,
      appGuard: RateGuard,
      services: [NotesService],
    });

    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("McpModule's authGuard TokenGuard");
  });

  it('names five operations and counts the rest; unpublished ones are not counted', async () => {
    const warnings = await guardWarnings({
      authGuard: TokenGuard,
      services: [ManyNotesService],
    });

    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      'the calls of 7 operation(s) that need a permission (notes.a, notes.b, notes.c, notes.d, notes.e and 2 more)',
    );
    expect(warnings[0]).not.toContain('notes.internal');
  });

  it.each<[string, GuardCheckApp, AppSetup?]>([
    [
      'as APP_GUARD',
      { authGuard: TokenGuard, appGuard: TokenGuard, services: [NotesService] },
    ],
    [
      'as a request-scoped APP_GUARD',
      {
        authGuard: TokenGuard,
        appGuard: TokenGuard,
        requestScoped: true,
        services: [NotesService],
      },
    ],
    [
      'a subclass as APP_GUARD',
      {
        authGuard: TokenGuard,
        appGuard: AuditedTokenGuard,
        services: [NotesService],
      },
    ],
    [
      'with app.useGlobalGuards() in the setup',
      { authGuard: TokenGuard, services: [NotesService] },
      (app) => {
        app.useGlobalGuards(new TokenGuard());
      },
    ],
    [
      "in @UseGuards() on the operation's class",
      { authGuard: TokenGuard, services: [ClassGuardedNotesService] },
    ],
    [
      "in @UseGuards() on the operation's method (an instance)",
      { authGuard: TokenGuard, services: [MethodGuardedNotesService] },
    ],
    [
      'when no operation needs a permission',
      { authGuard: TokenGuard, services: [PublicNotesService] },
    ],
  ])('says nothing with the guard %s', async (_case, parts, setup) => {
    expect(await guardWarnings(parts, setup)).toEqual([]);
  });
});

describe('no guard at all', () => {
  it('warns that nothing sets request.user, and where main.ts guards do not reach', async () => {
    const warnings = await guardWarnings({ services: [NotesService] });

    expect(warnings).toEqual([
      "No guard runs on the calls of 1 operation(s) that need a permission (notes.create): nothing sets request.user, so every call is refused with SECURITY_DENIED_003. Register the app's authentication guard for every call: { provide: APP_GUARD, useClass: ... } in a module's providers, or app.useGlobalGuards() in the setup function that main.ts applies and runCli's setup option (and createTestApplication) take. A guard set with app.useGlobalGuards() in main.ts alone does not reach the command line, stdio or the testing clients.",
    ]);
  });

  it.each<[string, GuardCheckApp, AppSetup?]>([
    ['with an APP_GUARD', { appGuard: RateGuard, services: [NotesService] }],
    [
      'with a guard set in the setup',
      { services: [NotesService] },
      (app) => {
        app.useGlobalGuards(new RateGuard());
      },
    ],
    [
      'with no operation needing a permission',
      { services: [PublicNotesService] },
    ],
  ])('says nothing %s', async (_case, parts, setup) => {
    expect(await guardWarnings(parts, setup)).toEqual([]);
  });
});
