import {
  type ArgumentMetadata,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  Injectable,
  Module,
  type NestInterceptor,
  type PipeTransform,
  UsePipes,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { McpModule } from '@nestops/mcp';
import { getInvocationContext, Operation } from '@nestops/operations';
import { unitOfWorkOf } from '@nestops/operations/internal';
import { OperationTestClient } from '@nestops/operations/testing';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { map, type Observable } from 'rxjs';

/**
 * Rules of the operation pipeline that each held against one broken line:
 * the app's global, class and method pipes transform the input before the
 * operation's validation sees it, and a result replaced after an
 * interceptor serialised it is the one the carrier sends.
 */

class RulesNoteDto {
  @IsString()
  note: string;
}

class LabelDto {
  @IsOptional()
  @IsString()
  label?: string;
}

/** `@ValidateNested()` without `@Type()`: class-transformer leaves `child` a plain object. */
class UntypedParentDto {
  @IsOptional()
  @ValidateNested()
  child?: LabelDto;
}

@Injectable()
class ParentOperations {
  @Operation({ id: 'parents.take', readOnly: true, input: UntypedParentDto })
  take(input: UntypedParentDto): { taken: boolean } {
    return { taken: input.child !== undefined };
  }
}

/** Appends `+<mark>` to the `note` of the input (not to the invocation context). */
class MarkPipe implements PipeTransform {
  constructor(private readonly mark: string) {}

  transform(value: unknown): unknown {
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { note?: unknown }).note === 'string'
    ) {
      const { note } = value as { note: string };
      return { ...value, note: `${note}+${this.mark}` };
    }
    return value;
  }
}

@Injectable()
@UsePipes(new MarkPipe('class'))
class NoteOperations {
  @Operation({
    id: 'notes.mark',
    readOnly: true,
    input: RulesNoteDto,
    output: RulesNoteDto,
  })
  @UsePipes(new MarkPipe('method'))
  mark(input: RulesNoteDto): RulesNoteDto {
    return { note: input.note };
  }
}

/** Registered first, so it wraps the other: replaces every result. */
@Injectable()
class ReplaceResult implements NestInterceptor {
  intercept(
    _context: ExecutionContext,
    next: CallHandler,
  ): Observable<unknown> {
    return next.handle().pipe(map(() => ({ note: 'replaced' })));
  }
}

/** As a transaction interceptor does: serialises the result before it is sent. */
@Injectable()
class SerializeResult implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((value) => {
        const invocation = getInvocationContext(context);
        return invocation
          ? unitOfWorkOf(invocation).serializeResult(value).value
          : undefined;
      }),
    );
  }
}

/** What the app's global guard and pipe see of each call. */
const seenByApp: { handlers: string[]; arguments: string[] } = {
  handlers: [],
  arguments: [],
};

@Injectable()
class RecordHandler implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    seenByApp.handlers.push(
      `${context.getClass().name}.${context.getHandler().name}`,
    );
    return true;
  }
}

class RecordArgument implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    seenByApp.arguments.push(`${metadata.type}:${metadata.metatype?.name}`);
    return value;
  }
}

async function boot(providers: Parameters<typeof Module>[0]['providers']) {
  @Module({ imports: [McpModule.forRoot()], providers })
  class RulesModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [RulesModule],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

describe('the pipeline: app pipes on the input', () => {
  let moduleRef: TestingModule;

  beforeAll(async () => {
    moduleRef = await boot([
      NoteOperations,
      { provide: APP_PIPE, useValue: new MarkPipe('global') },
    ]);
  });

  afterAll(() => moduleRef?.close());

  it('runs the global, class and method pipes on the input, in that order, before the validation', async () => {
    const result = await OperationTestClient.create(moduleRef).invoke(
      'notes.mark',
      {
        note: 'x',
      },
    );

    expect(result).toEqual({
      ok: true,
      value: { note: 'x+global+class+method' },
      json: '{"note":"x+global+class+method"}',
    });
  });
});

describe('the pipeline: a result replaced after it was serialised', () => {
  let moduleRef: TestingModule;

  beforeAll(async () => {
    moduleRef = await boot([
      NoteOperations,
      { provide: APP_INTERCEPTOR, useClass: ReplaceResult },
      { provide: APP_INTERCEPTOR, useClass: SerializeResult },
    ]);
  });

  afterAll(() => moduleRef?.close());

  it('is sent as replaced, not as the earlier serialisation', async () => {
    const result = await OperationTestClient.create(moduleRef).invoke(
      'notes.mark',
      {
        note: 'x',
      },
    );

    expect(result).toEqual({
      ok: true,
      value: { note: 'replaced' },
      json: '{"note":"replaced"}',
    });
  });
});

describe('the pipeline: a nested object no class describes', () => {
  let moduleRef: TestingModule;

  beforeAll(async () => {
    moduleRef = await boot([ParentOperations]);
  });

  afterAll(() => moduleRef?.close());

  it('is refused (forbidUnknownValues), even when empty, rather than passed on unvalidated', async () => {
    const client = OperationTestClient.create(moduleRef);

    for (const child of [{}, { label: 'x' }]) {
      const result = await client.invoke('parents.take', { child });
      expect(result.ok, JSON.stringify(child)).toBe(false);
      if (!result.ok) {
        expect(result.failure.code).toBe('VALIDATION_INVALID_001');
        expect(result.failure.violations?.map((v) => v.constraint)).toEqual([
          'unknownValue',
        ]);
      }
    }
    expect(await client.invoke('parents.take', {})).toEqual({
      ok: true,
      value: { taken: false },
      json: '{"taken":false}',
    });
  });
});

describe("the pipeline: the call as the app's guards and pipes see it", () => {
  let moduleRef: TestingModule;

  beforeAll(async () => {
    moduleRef = await boot([
      NoteOperations,
      { provide: APP_GUARD, useClass: RecordHandler },
      { provide: APP_PIPE, useValue: new RecordArgument() },
    ]);
  });

  afterAll(() => moduleRef?.close());

  it('names the operation method as the handler, and gives the pipes the input as the body of its DTO class and the context as a custom Object', async () => {
    seenByApp.handlers.length = 0;
    seenByApp.arguments.length = 0;
    const result = await OperationTestClient.create(moduleRef).invoke(
      'notes.mark',
      { note: 'x' },
    );
    expect(result.ok).toBe(true);
    expect(seenByApp).toEqual({
      handlers: ['NoteOperations.mark'],
      arguments: ['body:RulesNoteDto', 'custom:Object'],
    });
  });
});
