import type { NestInterceptor, Type } from '@nestjs/common';
import { DATABASES, skipUnlessEnabled } from '../support/databases';
import {
  EnvelopeInterceptor,
  LateFailureInterceptor,
  type Place,
  PLACES,
  type RunningTickets,
  startTicketsApp,
} from '../fixtures/outer-interceptor-fixtures';
import { callTool, type ClientV1, McpClients } from '../support/mcp-clients';

/**
 * An app's interceptors wherever it registers them (the root module's
 * providers, `useGlobalInterceptors()`, a feature module before or after
 * `UnitOfWorkModule`): a call whose result they break, or that they fail
 * after the handler, is answered `isError` and leaves nothing committed; a
 * call they only reshape commits. Over real MCP (SDK v1 client) on SQLite
 * and PostgreSQL.
 */
describe.each(DATABASES)(
  'interceptors outside the unit of work ($name)',
  (db) => {
    if (!skipUnlessEnabled(db)) {
      return;
    }

    /** The tickets app for the tests of the enclosing `describe`, and a connected client. */
    function useTickets(
      place: Place,
      interceptor: Type<NestInterceptor>,
      filter = false,
    ): () => { app: RunningTickets; mcp: ClientV1 } {
      let app: RunningTickets;
      let clients: McpClients;
      let mcp: ClientV1;
      beforeAll(async () => {
        app = await startTicketsApp(db.database, place, interceptor, filter);
        clients = new McpClients(app.baseUrl);
        mcp = await clients.v1();
      });
      afterAll(async () => {
        await clients?.closeAll();
        await app?.close();
      });
      return () => ({ app, mcp });
    }

    describe.each(PLACES)('a response envelope as %s', (place) => {
      const running = useTickets(place, EnvelopeInterceptor);

      it('answers INTERNAL_CONTRACT_001 for a call whose output contract it breaks, and commits nothing', async () => {
        const { app, mcp } = running();
        const outcome = await callTool(mcp, 'tickets_create', {
          title: 'broken by the envelope',
        });

        expect(outcome.isError).toBe(true);
        expect(outcome.text).toMatch(
          /^INTERNAL_CONTRACT_001: An interceptor of the app changed the result of tickets\.create /,
        );
        expect(await app.titles()).toEqual([]);
      });

      it('commits a call without an output contract, answered as the envelope made it', async () => {
        const { app, mcp } = running();
        const outcome = await callTool(mcp, 'tickets_note', {
          title: 'wrapped',
        });

        expect(outcome.isError, outcome.text).toBe(false);
        expect(outcome.structuredContent).toEqual({
          // PostgreSQL's sequence keeps the id the rolled-back call took.
          data: { id: expect.any(Number) as number, title: 'wrapped' },
        });
        expect(await app.titles()).toEqual(['wrapped']);
      });
    });

    describe.each(PLACES)(
      'an interceptor failing after the handler as %s, its failure rewritten by an APP_FILTER',
      (place) => {
        const running = useTickets(place, LateFailureInterceptor, true);

        it("answers the filter's failure and commits nothing", async () => {
          const { app, mcp } = running();
          const outcome = await callTool(mcp, 'tickets_note', {
            title: 'refused late',
          });

          expect(outcome).toMatchObject({
            isError: true,
            text: 'BUSINESS_CONFLICT_001: Rewritten by the app filter.',
          });
          expect(await app.titles()).toEqual([]);
        });
      },
    );
  },
);
