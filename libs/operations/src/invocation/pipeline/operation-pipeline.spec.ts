import {
  type ArgumentsHost,
  BadRequestException,
  Catch,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  Injectable,
  Module,
  type NestInterceptor,
  type PipeTransform,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
} from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { IsString } from 'class-validator';
import { map, type Observable } from 'rxjs';
import { Operation } from '../../operation.decorator.js';
import { OperationInvoker } from '../../operation.invoker.js';
import { OperationsModule } from '../../operations.module.js';
import type { InvocationOptions } from '../call/invocation-options.interface.js';

/**
 * The pipeline a call goes through, as a Nest route does: guards, then
 * interceptors around pipes and the method, and the exception filters
 * over all of them; each step records itself in `seen`.
 */
const seen: string[] = [];

class PipelineSpecWordDto {
  @IsString()
  word: string;
}

@Injectable()
class PipelineSpecGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { headers } = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string> }>();
    seen.push('guard');
    return headers['x-allow'] === 'yes';
  }
}

@Injectable()
class PipelineSpecInterceptor implements NestInterceptor {
  intercept(
    _context: ExecutionContext,
    next: CallHandler,
  ): Observable<unknown> {
    seen.push('interceptor');
    return next.handle().pipe(
      map((value: { word: string }) => {
        seen.push('interceptor after');
        return { word: `${value.word}!` };
      }),
    );
  }
}

@Injectable()
class PipelineSpecUpperPipe implements PipeTransform {
  transform(value: unknown): unknown {
    const { word } = (value ?? {}) as { word?: unknown };
    if (typeof word !== 'string') {
      return value;
    }
    seen.push('pipe');
    return { word: word.toUpperCase() };
  }
}

@Catch(BadRequestException)
class PipelineSpecFilter implements ExceptionFilter {
  catch(_exception: BadRequestException, host: ArgumentsHost): void {
    seen.push('filter');
    host
      .switchToHttp()
      .getResponse<{ status(code: number): { json(body: object): void } }>()
      .status(409)
      .json({ statusCode: 409, message: 'The word is taken.' });
  }
}

@Injectable()
class PipelineSpecOperations {
  @Operation({ id: 'pipeline.shout', description: 'Shouts a word back.' })
  @UseGuards(PipelineSpecGuard)
  @UseInterceptors(PipelineSpecInterceptor)
  @UsePipes(PipelineSpecUpperPipe)
  shout(input: PipelineSpecWordDto): { word: string } {
    seen.push(`method ${input.word}`);
    return { word: input.word };
  }

  @Operation({ id: 'pipeline.claim', description: 'Claims a word.' })
  @UseFilters(PipelineSpecFilter)
  claim(input: PipelineSpecWordDto): never {
    seen.push(`method ${input.word}`);
    throw new BadRequestException('taken');
  }
}

@Module({
  imports: [OperationsModule],
  providers: [
    PipelineSpecOperations,
    PipelineSpecGuard,
    PipelineSpecInterceptor,
  ],
})
class PipelineSpecModule {}

let moduleRef: TestingModule;
let invoker: OperationInvoker;
beforeAll(async () => {
  moduleRef = await Test.createTestingModule({
    imports: [PipelineSpecModule],
  }).compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  invoker = moduleRef.get(OperationInvoker);
});
afterAll(() => moduleRef.close());
beforeEach(() => {
  seen.length = 0;
});

const shout = (word: string, allow = 'yes'): InvocationOptions => ({
  carrier: 'mcp',
  target: 'spec',
  headers: { 'x-allow': allow },
  input: { word },
});

describe('OperationPipeline', () => {
  it('runs the guard, the interceptor, the pipe, then the method, and maps the result back out', async () => {
    expect(await invoker.invoke('pipeline.shout', shout('hi'))).toMatchObject({
      ok: true,
      value: { word: 'HI!' },
    });
    expect(seen).toEqual([
      'guard',
      'interceptor',
      'pipe',
      'method HI',
      'interceptor after',
    ]);
  });

  it('stops at a guard that returns false: 403 Forbidden, nothing else runs', async () => {
    const result = await invoker.invoke('pipeline.shout', shout('hi', 'no'));
    expect(result).toMatchObject({
      ok: false,
      failure: { code: 'SECURITY_DENIED_001' },
    });
    expect(seen).toEqual(['guard']);
  });

  it('refuses an input its DTO rules refuse before the method runs', async () => {
    const result = await invoker.invoke('pipeline.shout', {
      ...shout('hi'),
      input: { word: 42 },
    });
    expect(result).toMatchObject({ ok: false });
    expect(seen).not.toContain('method 42');
  });
});

describe('OperationPipeline with an exception filter', () => {
  it("answers with what the app's filter writes for the exception it catches", async () => {
    const result = await invoker.invoke('pipeline.claim', shout('mine'));
    expect(result).toMatchObject({
      ok: false,
      failure: {
        code: 'BUSINESS_CONFLICT_001',
        params: { detail: 'The word is taken.' },
      },
    });
    expect(seen).toEqual(['method mine', 'filter']);
  });
});
