import { JwtService } from '@nestjs/jwt';
import { OperationTestClient } from '@nestops/operations/testing';
import {
  AccountsService,
  AuditFilter,
  AllExceptionsFilter,
  BankAppModule,
  LedgerAppModule,
  NotesAppModule,
  RateCardFilter,
  ScopedBankAppModule,
  ThrottledAppModule,
  VaultAppModule,
} from '../fixtures/nest-stack-fixtures';
import { CapturingLogger } from '../fixtures/pipeline-fixtures';
import { errorText, resultJson, mcpHttp } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/**
 * The app's exception filters, its HttpExceptions' own messages, its
 * passport guard's messages and ThrottlerGuard's 429, on tool calls over
 * real HTTP, next to the same app's REST routes.
 */

describe('exception filters on tool calls', () => {
  const logger = new CapturingLogger();
  const bank = useApp(() =>
    startApp(BankAppModule, {
      logger,
      // main.ts: app.useGlobalFilters()
      setup: (app) => app.useGlobalFilters(new RateCardFilter()),
    }),
  );
  const call = (name: string, args: Record<string, unknown> = {}) =>
    mcpHttp(bank().baseUrl).callTool(name, args);

  it("APP_FILTER: the domain-error filter's 422 and message reach the agent", async () => {
    expect(errorText(await call('accounts_withdraw', { amount: 10 }))).toBe(
      'VALIDATION_INVALID_001: Invalid input: Balance 4 is too low.',
    );
    expect(resultJson(await call('accounts_withdraw', { amount: 3 }))).toEqual({
      balance: 1,
    });
  });

  it('APP_FILTER: the REST route of the same app answers as before', async () => {
    const response = await fetch(`${bank().baseUrl}/accounts/withdraw`, {
      method: 'POST',
    });

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: 'INSUFFICIENT_FUNDS',
      message: 'Balance 4 is too low.',
    });
  });

  it("@UseFilters on the class: the body's code of the app's wins", async () => {
    expect(errorText(await call('accounts_freeze'))).toBe(
      'ACCOUNTS_FROZEN_001: Account 7 is frozen.',
    );
  });

  it('@UseFilters on the method: a text body (send) is the text', async () => {
    expect(errorText(await call('accounts_lock'))).toBe(
      'BUSINESS_REJECTED_001: Account 7 is locked until noon.',
    );
  });

  it('useGlobalFilters in main.ts', async () => {
    expect(errorText(await call('accounts_rates'))).toBe(
      'BUSINESS_REJECTED_001: No rate card today.',
    );
  });

  it("a filter that writes nothing leaves today's mapping", async () => {
    AuditFilter.seen.length = 0;

    expect(errorText(await call('accounts_find'))).toBe(
      'BUSINESS_NOTFOUND_001: Account 9 does not exist.',
    );
    expect(AuditFilter.seen).toEqual(['Account 9 does not exist.']);
  });

  it("a 503 HttpException's own message reaches the agent, as on REST", async () => {
    expect(errorText(await call('accounts_sync'))).toBe(
      'INTERNAL_UNAVAILABLE_001: Bank is down, retry in 30 s',
    );
    const response = await fetch(`${bank().baseUrl}/accounts/sync`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      message: 'Bank is down, retry in 30 s',
    });
  });

  it('an unknown error no filter catches is INTERNAL_ERROR_001, its internals only in the log', async () => {
    logger.errors.length = 0;
    const text = errorText(await call('accounts_crash'));

    expect(text).toMatch(
      /^INTERNAL_ERROR_001: An unexpected error occurred \(correlation id [\w-]+\)\.$/,
    );
    expect(text).not.toContain('ledger');
    expect(logger.errors.join('\n')).toContain('ledger row 7 is corrupt');
  });

  it('the library answers an invalid input itself: no filter sees it', async () => {
    expect(errorText(await call('accounts_withdraw', { amount: 0 }))).toBe(
      'VALIDATION_INVALID_001: Invalid input: amount must not be less than 1',
    );
  });

  it('filters run for the command line and tests too (OperationInvoker)', async () => {
    const result = await OperationTestClient.create(bank().app).invoke(
      'accounts.withdraw',
      { amount: 10 },
    );

    expect(result).toMatchObject({
      ok: false,
      failure: {
        code: 'VALIDATION_INVALID_001',
        params: { detail: 'Balance 4 is too low.' },
      },
    });
    expect(bank().app.get(AccountsService)).toBeDefined();
  });
});

describe('request-scoped operations and a request-scoped APP_FILTER', () => {
  const scoped = useApp(() => startApp(ScopedBankAppModule));

  it('the filter runs per call, and the class filter too', async () => {
    expect(
      errorText(
        await mcpHttp(scoped().baseUrl).callTool('accounts_withdraw', {
          amount: 10,
        }),
      ),
    ).toBe('VALIDATION_INVALID_001: Invalid input: Balance 4 is too low.');
    expect(
      errorText(await mcpHttp(scoped().baseUrl).callTool('accounts_freeze')),
    ).toBe('ACCOUNTS_FROZEN_001: Account 7 is frozen.');
  });
});

describe('@UseFilters on the class and the method, no global filter', () => {
  const vault = useApp(() => startApp(VaultAppModule));

  it('both run', async () => {
    expect(
      errorText(await mcpHttp(vault().baseUrl).callTool('vaults_freeze')),
    ).toBe('ACCOUNTS_FROZEN_001: Account 7 is frozen.');
    expect(
      errorText(await mcpHttp(vault().baseUrl).callTool('vaults_lock')),
    ).toBe('BUSINESS_REJECTED_001: Account 7 is locked until noon.');
  });
});

describe("a catch-all APP_FILTER extending BaseExceptionFilter (Nest's docs)", () => {
  const logger = new CapturingLogger();
  const ledger = useApp(() => startApp(LedgerAppModule, { logger }));
  const call = (name: string, args: Record<string, unknown> = {}) =>
    mcpHttp(ledger().baseUrl).callTool(name, args);

  it("Nest's default text of what it answers keeps the library's text", async () => {
    AllExceptionsFilter.seen.length = 0;

    expect(errorText(await call('ledger_audit'))).toBe(
      'SECURITY_DENIED_003: Authentication is required.',
    );
    expect(AllExceptionsFilter.seen).toHaveLength(1);
  });

  it("an HttpException's own message reaches the agent through it", async () => {
    expect(errorText(await call('ledger_sync'))).toBe(
      'INTERNAL_UNAVAILABLE_001: Bank is down, retry in 30 s',
    );
  });

  it("its 500 'Internal server error' for an unknown error is INTERNAL_ERROR_001, logged", async () => {
    logger.errors.length = 0;
    const text = errorText(await call('ledger_crash'));

    expect(text).toMatch(/^INTERNAL_ERROR_001: An unexpected error occurred/);
    expect(text).not.toContain('ledger row');
    expect(logger.errors.join('\n')).toContain('ledger row 7 is corrupt');
  });

  it("the library's failures never reach it: an invalid input names its field", async () => {
    AllExceptionsFilter.seen.length = 0;

    expect(errorText(await call('ledger_post', { amount: 0 }))).toBe(
      'VALIDATION_INVALID_001: Invalid input: amount must not be less than 1',
    );
    expect(AllExceptionsFilter.seen).toEqual([]);
  });
});

describe('passport and jwt: the guard says why', () => {
  const notes = useApp(() => startApp(NotesAppModule));
  const token = (exp: number) =>
    notes().app.get(JwtService).sign({ sub: 'alice', username: 'alice', exp });
  const now = () => Math.floor(Date.now() / 1000);

  it('an expired token reads SECURITY_DENIED_003: Token expired, as REST says it', async () => {
    const expired = { authorization: `Bearer ${token(now() - 60)}` };

    expect(
      errorText(
        await mcpHttp(notes().baseUrl).callTool(
          'notes_create',
          { text: 'hi' },
          expired,
        ),
      ),
    ).toBe('SECURITY_DENIED_003: Token expired');
    const rest = await fetch(`${notes().baseUrl}/notes/me`, {
      headers: expired,
    });
    expect(rest.status).toBe(401);
    expect(await rest.json()).toMatchObject({ message: 'Token expired' });
  });

  it("no token: Nest's default text keeps the library's text", async () => {
    const result = await mcpHttp(notes().baseUrl).callTool('notes_create', {
      text: 'hi',
    });
    expect(errorText(result)).toBe(
      'SECURITY_DENIED_003: Authentication is required.',
    );
  });
});

describe('ThrottlerGuard as APP_GUARD', () => {
  const throttled = useApp(() => startApp(ThrottledAppModule));

  it('a throttled call reads SECURITY_THROTTLED_001 with the retry hint in seconds, in the text and the data', async () => {
    const client = OperationTestClient.create(throttled().app);
    expect(await client.invoke('pings.send')).toMatchObject({ ok: true });
    expect(await client.invoke('pings.send')).toMatchObject({ ok: true });

    const result = await client.invoke('pings.send');

    expect(result).toMatchObject({
      ok: false,
      failure: { code: 'SECURITY_THROTTLED_001', params: { retryAfter: 60 } },
      text: 'SECURITY_THROTTLED_001: Too many calls; retry in 60 s.',
    });
    // Over HTTP the caller is its address, with a bucket of its own.
    for (let call = 0; call < 2; call += 1) {
      expect(
        (await mcpHttp(throttled().baseUrl).callTool('pings_send')).isError,
      ).toBeFalsy();
    }
    expect(
      errorText(await mcpHttp(throttled().baseUrl).callTool('pings_send')),
    ).toMatch(/^SECURITY_THROTTLED_001: Too many calls; retry in (59|60) s\.$/);
  });

  it('REST answers 429 with Retry-After, as before', async () => {
    let response = await fetch(`${throttled().baseUrl}/ping`);
    while (response.status === 200) {
      response = await fetch(`${throttled().baseUrl}/ping`);
    }
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
