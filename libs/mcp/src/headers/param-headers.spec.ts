import { Injectable, Module, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Operation, type OperationDefinition } from '@nestops/operations';
import { OperationRegistry } from '@nestops/operations/internal';
import {
  IsBoolean,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
} from 'class-validator';
import { McpModule } from '../mcp.module.js';
import { McpToolCatalogue } from '../tools/mcp-tool.catalogue.js';
import { McpHeader } from './mcp-header.decorator.js';
import { paramHeadersOf, withParamHeaders } from './param-headers.js';

class RouteInput {
  @McpHeader('Region')
  @IsString()
  region: string;

  @McpHeader('Priority')
  @IsOptional()
  @IsInt()
  priority?: number;

  @McpHeader('Dry-Run')
  @IsOptional()
  @IsBoolean()
  dryRun?: boolean;

  @IsString()
  query: string;
}

/** Inherits the parent's headers and adds its own. */
class TracedRouteInput extends RouteInput {
  @McpHeader('Trace')
  @IsString()
  trace: string;
}

/** A real app with one operation taking `input`, started: its catalogue checks the headers. */
async function start(input: Type) {
  @Injectable()
  class RoutesService {
    @Operation({ id: 'routes.find', readOnly: true, input })
    find(): string {
      return 'found';
    }
  }
  @Module({
    imports: [McpModule.forRoot({ serverName: 'headers' })],
    providers: [RoutesService],
  })
  class HeadersModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [HeadersModule],
  }).compile();
  moduleRef.useLogger(false);
  return moduleRef.init();
}

async function operation(input: Type): Promise<OperationDefinition> {
  const app = await start(input);
  try {
    return app.get(OperationRegistry).get('routes.find')!;
  } finally {
    await app.close();
  }
}

describe('paramHeadersOf', () => {
  it("reads the input DTO's @McpHeader()s, its parents' too", async () => {
    expect(paramHeadersOf(await operation(TracedRouteInput))).toEqual([
      {
        property: 'region',
        name: 'Region',
        type: 'string',
      },
      {
        property: 'priority',
        name: 'Priority',
        type: 'integer',
      },
      {
        property: 'dryRun',
        name: 'Dry-Run',
        type: 'boolean',
      },
      {
        property: 'trace',
        name: 'Trace',
        type: 'string',
      },
    ]);
    expect(paramHeadersOf(await operation(RouteInput))).toHaveLength(3);
  });

  it('marks the mirrored properties x-mcp-header in the tool, and nothing else', async () => {
    const app = await start(RouteInput);
    const [tool] = app.get(McpToolCatalogue).tools('en-US');
    await app.close();
    expect(tool.inputSchema.properties?.region).toEqual({
      type: 'string',
      'x-mcp-header': 'Region',
    });
    const routes = await operation(RouteInput);
    const schema = withParamHeaders(
      routes.inputSchema!,
      paramHeadersOf(routes),
    );
    expect(schema.properties?.region).toEqual({
      type: 'string',
      'x-mcp-header': 'Region',
    });
    expect(schema.properties?.dryRun).toEqual({
      type: 'boolean',
      'x-mcp-header': 'Dry-Run',
    });
    expect(schema.properties?.query).toEqual({ type: 'string' });
    // The operation's own schema is left as it was.
    expect(routes.inputSchema?.properties?.region).toEqual({ type: 'string' });
  });

  describe('stops the startup, naming the operation and the property', () => {
    class SpacedInput {
      @McpHeader('Our Region')
      @IsString()
      region: string;
    }
    class ColonInput {
      @McpHeader('Region:')
      @IsString()
      region: string;
    }
    class NonAsciiInput {
      @McpHeader('Région')
      @IsString()
      region: string;
    }
    class EmptyInput {
      @McpHeader('')
      @IsString()
      region: string;
    }
    class TwiceInput {
      @McpHeader('Region')
      @IsString()
      region: string;

      @McpHeader('REGION')
      @IsString()
      zone: string;
    }
    class NumberInput {
      @McpHeader('Weight')
      @IsNumber()
      weight: number;
    }

    it.each([
      [SpacedInput, 'Our Region', 'region', 'it is not an HTTP token'],
      [ColonInput, 'Region:', 'region', 'it is not an HTTP token'],
      [NonAsciiInput, 'Région', 'region', 'it is not an HTTP token'],
      [EmptyInput, '', 'region', 'it is not an HTTP token'],
      [
        TwiceInput,
        'REGION',
        'zone',
        "property 'region' has it too (names are compared ignoring case)",
      ],
      [
        NumberInput,
        'Weight',
        'weight',
        'only a string, an integer or a boolean property can be mirrored',
      ],
    ])(
      '%o: @McpHeader(%j) on %s: %s',
      async (input, name, property, problem) => {
        await expect(start(input)).rejects.toThrow(
          `PROTOCOLS_VALIDATION_009: @McpHeader(${JSON.stringify(name)}) on ${input.name}.${property} of operation 'routes.find' (RoutesService.find) cannot be published: ${problem}`,
        );
      },
    );
  });

  it('an operation without input has none', () => {
    expect(paramHeadersOf({ id: 'x.y' } as OperationDefinition)).toEqual([]);
  });
});
