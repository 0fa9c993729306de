import {
  Body,
  Headers,
  Injectable,
  Module,
  Param,
  Query,
  Req,
  Res,
  type Type,
} from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { McpModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import {
  CheckedTransformInterceptor,
  ClassSerializerInterceptor,
  StackNoteDto,
  CurrentUser,
  interceptedApp,
  NotesAppModule,
  TransformInterceptor,
} from '../fixtures/nest-stack-fixtures';
import { CapturingLogger } from '../fixtures/pipeline-fixtures';
import { errorText, resultJson, mcpHttp } from '../support/mcp-http';
import { createApp, startApp, useApp } from '../support/start-app';

/**
 * The app's parameter decorators and response-shaping interceptors on tool
 * calls over real HTTP, next to the same app's REST routes.
 */

describe('parameter decorators (createParamDecorator)', () => {
  const notes = useApp(() => startApp(NotesAppModule));
  const alice = () => ({
    authorization: `Bearer ${notes()
      .app.get(JwtService)
      .sign({ sub: 'alice', username: 'alice' })}`,
  });

  it("@CurrentUser() and @UserField('username') get alice's user in a tool call", async () => {
    const result = await mcpHttp(notes().baseUrl).callTool(
      'notes_create',
      { text: 'hi' },
      alice(),
    );

    expect(resultJson(result)).toEqual({
      text: 'hi',
      owner: 'alice',
      by: 'alice',
    });
  });

  it('an undecorated second parameter is still the invocation context', async () => {
    const result = await mcpHttp(notes().baseUrl).callTool(
      'notes_whoami',
      {},
      alice(),
    );

    expect(resultJson(result)).toEqual({ carrier: 'mcp', user: 'alice' });
  });

  it('the REST route with the same decorator answers as before', async () => {
    const response = await fetch(`${notes().baseUrl}/notes/me`, {
      headers: alice(),
    });

    expect(await response.json()).toEqual({ user: 'alice' });
  });
});

describe('route decorators that mean nothing for a call stop startup', () => {
  /** An app whose one operation method is `method`, with `decorate` on its parameter `index`. */
  function appWith(decorate: ParameterDecorator, index: number): Type {
    @Injectable()
    class ReportsService {
      @Operation({ id: 'reports.create' })
      create(..._params: unknown[]): object {
        return {};
      }
    }
    decorate(ReportsService.prototype, 'create', index);
    @Module({
      imports: [McpModule.forRoot({ serverName: 'reports' })],
      providers: [ReportsService],
    })
    class ReportsModule {}
    return ReportsModule;
  }
  const startup = async (module: Type) => {
    const app = await createApp(module);
    try {
      await app.init();
    } finally {
      await app.close();
    }
  };

  it.each<{ name: string; decorate: ParameterDecorator; index: number }>([
    { name: '@Req()', decorate: Req(), index: 1 },
    { name: '@Res()', decorate: Res(), index: 2 },
    { name: '@Query()', decorate: Query('page'), index: 1 },
    { name: '@Param()', decorate: Param('id'), index: 1 },
    { name: '@Headers()', decorate: Headers('authorization'), index: 1 },
    { name: '@Body()', decorate: Body('text'), index: 0 },
    { name: '@Body()', decorate: Body(), index: 1 },
  ])('$name at index $index', async ({ name, decorate, index }) => {
    await expect(startup(appWith(decorate, index))).rejects.toThrow(
      `CONTRACT_VALIDATION_004: Operation 'reports.create' on ReportsService.create: its parameter ${index + 1} has ${name}, which means nothing for a tool call`,
    );
  });

  it("the app's own decorator on the input", async () => {
    await expect(startup(appWith(CurrentUser(), 0))).rejects.toThrow(
      "its parameter 1 has a parameter decorator, which means nothing for a tool call: the first parameter is the operation's input",
    );
  });

  it('a bare @Body() on the input is the input', async () => {
    @Injectable()
    class NotesService {
      @Operation({ id: 'notes.create' })
      create(@Body() dto: StackNoteDto): { text: string } {
        return { text: dto.text };
      }
    }
    @Module({
      imports: [McpModule.forRoot({ serverName: 'notes' })],
      providers: [NotesService],
    })
    class BodyModule {}
    const running = await startApp(BodyModule);
    try {
      expect(
        resultJson(
          await mcpHttp(running.baseUrl).callTool('notes_create', {
            text: 'hi',
          }),
        ),
      ).toEqual({ text: 'hi' });
    } finally {
      await running.close();
    }
  });
});

describe("the docs' TransformInterceptor (map(data => ({ data }))) as APP_INTERCEPTOR", () => {
  const logger = new CapturingLogger();
  const counter = useApp(() =>
    startApp(interceptedApp(TransformInterceptor), { logger }),
  );

  it('a typed tool fails with a text and a log line that say so and name the fix', async () => {
    logger.errors.length = 0;
    const text = errorText(
      await mcpHttp(counter().baseUrl).callTool('counter_get'),
    );

    expect(text).toMatch(
      /^INTERNAL_CONTRACT_001: An interceptor of the app changed the result of counter\.get so that it no longer matches its output contract \(correlation id [\w-]+\)\. To leave tool calls alone, begin its intercept\(\) with: if \(isOperationCall\(context\)\) return next\.handle\(\);$/,
    );
    expect(logger.errors.join('\n')).toContain(
      'Operation counter.get failed (correlation id',
    );
    expect(logger.errors.join('\n')).toContain(
      "(root) must have required property 'n'. The method's own result matches it: an interceptor of the app changed the result. To leave tool calls alone, begin its intercept() with: if (isOperationCall(context)) return next.handle();",
    );
  });

  it('a result the method itself got wrong stays INTERNAL_ERROR_001', async () => {
    expect(
      errorText(await mcpHttp(counter().baseUrl).callTool('counter_broken')),
    ).toMatch(/^INTERNAL_ERROR_001: /);
  });

  it('a tool without an output contract answers what the interceptor made', async () => {
    expect(
      resultJson(await mcpHttp(counter().baseUrl).callTool('counter_raw')),
    ).toEqual({ data: { n: 2 } });
  });
});

describe('the same interceptor with the documented isOperationCall check', () => {
  const counter = useApp(() =>
    startApp(interceptedApp(CheckedTransformInterceptor)),
  );

  it('typed tools succeed', async () => {
    expect(
      resultJson(await mcpHttp(counter().baseUrl).callTool('counter_get')),
    ).toEqual({ n: 1 });
  });

  it('REST routes are still wrapped', async () => {
    const response = await fetch(`${counter().baseUrl}/counter`);

    expect(await response.json()).toEqual({ data: { n: 1 } });
  });
});

describe('ClassSerializerInterceptor as APP_INTERCEPTOR', () => {
  const counter = useApp(() =>
    startApp(interceptedApp(ClassSerializerInterceptor)),
  );

  it('a typed tool succeeds, without the @Exclude() field', async () => {
    const result = await mcpHttp(counter().baseUrl).callTool('accounts_get');

    expect(resultJson(result)).toEqual({ id: 7, owner: 'alice' });
  });

  it('REST answers the same', async () => {
    const response = await fetch(`${counter().baseUrl}/counter/account`);

    expect(await response.json()).toEqual({ id: 7, owner: 'alice' });
  });
});
