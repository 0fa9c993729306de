import { Logger } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { HttpAdapterHost as NestHttpAdapterHost } from '@nestjs/core';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { resolveLifecycleOptions } from './lifecycle-options.js';
import { callOnListen, installedNestCore } from './nest-lifecycle.check.js';
import { ServerLifecycle } from './server-lifecycle.js';

describe('callOnListen', () => {
  it('calls back once app.listen() has the server listening (HttpAdapterHost.listening), and not before', () => {
    const host = new NestHttpAdapterHost();
    let calls = 0;

    expect(callOnListen(host, () => (calls += 1))).toBe(undefined);
    expect(calls).toBe(0);
    host.listening = true;
    expect(calls).toBeGreaterThan(0);
  });

  it('calls back at once when the server listens already', () => {
    const host = new NestHttpAdapterHost();
    host.listening = true;
    let called = false;

    expect(callOnListen(host, () => (called = true))).toBe(undefined);
    expect(called).toBe(true);
  });

  it('says what is missing on a Nest without HttpAdapterHost.listen$', () => {
    let called = false;

    expect(callOnListen({} as HttpAdapterHost, () => (called = true))).toBe(
      'no HttpAdapterHost.listen$',
    );
    expect(called).toBe(false);
  });
});

describe('ServerLifecycle on a Nest without what it reads', () => {
  it('warns, naming the installed Nest, and is ready from its own bootstrap hook', () => {
    const warn = vi
      .spyOn(Logger.prototype, 'warn')
      .mockImplementation(() => undefined);
    onTestFinished(() => warn.mockRestore());
    const server = createServer();
    const host = {
      httpAdapter: { getHttpServer: () => server },
    } as unknown as HttpAdapterHost;
    const lifecycle = new ServerLifecycle(host, resolveLifecycleOptions());

    lifecycle.onModuleInit();
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      `McpServerLifecycleModule cannot tell when app.listen() has the server listening on @nestjs/core ${installedNestCore()}: no HttpAdapterHost.listen$. ` +
        "The app is ready from McpServerLifecycleModule's own onApplicationBootstrap hook on, which Nest runs before those of the root module and of the modules the root imports after it.",
    ]);
    expect(lifecycle.isReady()).toBe(false);
    lifecycle.serve();
    expect(lifecycle.isReady()).toBe(true);
  });
});

describe('installedNestCore', () => {
  it("is the installed @nestjs/core's version", () => {
    expect(installedNestCore()).toBe(
      (
        createRequire(__filename)('@nestjs/core/package.json') as {
          version: string;
        }
      ).version,
    );
  });
});
