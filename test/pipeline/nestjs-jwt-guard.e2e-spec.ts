import { Injectable, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule, JwtService } from '@nestjs/jwt';
import { McpModule } from '@nestops/mcp';
import { Operation } from '@nestops/operations';
import { IsString } from 'class-validator';
import { JwtAuthGuard } from '../recipes/nestjs-jwt/auth/jwt-auth.guard';
import { mcpHttp } from '../support/mcp-http';
import { startApp, useApp } from '../support/start-app';

/**
 * NestJS's authentication recipe (`@nestjs/jwt`'s `JwtService.verifyAsync`
 * in the app's own guard) as McpModule's `authGuard`: a valid token calls
 * with its permissions, a forged or expired one is the endpoint's 401, and
 * a refused call writes nothing. The guard is the recipe's file, as
 * docs/recipes/nestjs-jwt.md shows it.
 */

const SECRET = 'a-secret-of-this-test-only';

class JwtNoteDto {
  @IsString()
  text!: string;
}

@Injectable()
class JwtNotesService {
  readonly notes: string[] = [];

  @Operation({ id: 'notes.add', permission: 'notes.write' })
  add({ text }: JwtNoteDto): { count: number } {
    this.notes.push(text);
    return { count: this.notes.length };
  }
}

@Module({
  imports: [
    JwtModule.register({
      global: true,
      secret: SECRET,
      signOptions: { expiresIn: '60s' },
    }),
    McpModule.forRoot({ serverName: 'jwt-notes', authGuard: JwtAuthGuard }),
  ],
  providers: [JwtNotesService, { provide: APP_GUARD, useClass: JwtAuthGuard }],
})
class JwtNotesModule {}

describe('@nestjs/jwt in the app guard McpModule runs', () => {
  const running = useApp(() => startApp(JwtNotesModule));
  const notes = () => running().app.get(JwtNotesService).notes;
  const sign = (payload: object, options = {}) =>
    running().app.get(JwtService).sign(payload, options);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('calls with the permissions the token holds', async () => {
    const mcp = mcpHttp(running().baseUrl);
    const writer = sign({ sub: 'alice', permissions: ['notes.write'] });
    const reader = sign({ sub: 'bob', permissions: [] });

    const added = await mcp.callTool(
      'notes_add',
      { text: 'hi' },
      bearer(writer),
    );
    const denied = await mcp.callTool(
      'notes_add',
      { text: 'no' },
      bearer(reader),
    );

    expect(added).toMatchObject({ structuredContent: { count: 1 } });
    expect(denied).toMatchObject({
      isError: true,
      content: [
        { text: "SECURITY_DENIED_004: Permission 'notes.write' is missing." },
      ],
    });
    expect(notes()).toEqual(['hi']);
  });

  it.each([
    [
      'a forged',
      () =>
        sign(
          { sub: 'alice', permissions: ['notes.write'] },
          { secret: 'another' },
        ),
    ],
    [
      'an expired',
      () =>
        sign(
          { sub: 'alice', permissions: ['notes.write'] },
          { expiresIn: '-10s' },
        ),
    ],
  ])('answers %s token 401 and writes nothing', async (_, token) => {
    const before = notes().length;

    const reply = await mcpHttp(running().baseUrl).request(
      'tools/call',
      { name: 'notes_add', arguments: { text: 'x' } },
      bearer(token()),
    );

    expect(reply.status).toBe(401);
    expect(notes().length).toBe(before);
  });
});
