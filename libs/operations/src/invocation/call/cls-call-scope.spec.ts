import { Module } from '@nestjs/common';
import { ModuleRef, NestFactory } from '@nestjs/core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLS_ID,
  CLS_REQ,
  ClsMiddleware,
  ClsModule,
  ClsService,
  ClsServiceManager,
} from 'nestjs-cls';
import { afterAll, describe, expect, it } from 'vitest';
import { clsCallScope } from './cls-call-scope.js';

/** A real Nest app context with `ClsModule.forRoot(options)`, or none. */
async function appWith(options?: Parameters<typeof ClsModule.forRoot>[0]) {
  @Module({ imports: options ? [ClsModule.forRoot(options)] : [] })
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, {
    logger: false,
  });
  return { app, moduleRef: app.get(ModuleRef) };
}

describe('clsCallScope', () => {
  const root = mkdtempSync(join(tmpdir(), 'nestjs-cls-peer-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('runs each call in a new context set up by the mounted middleware, never the one it is called in', async () => {
    const { app, moduleRef } = await appWith({
      global: true,
      middleware: { mount: true, generateId: true },
    });
    try {
      const cls = app.get(ClsService);
      const scope = clsCallScope(moduleRef);
      expect(scope).toBeDefined();
      const request = { headers: {} };
      const seen = await cls.run(async () => {
        cls.set(CLS_ID, 'outer');
        cls.set('leak', 'outer');
        return scope!(request, {}, async () => ({
          id: cls.getId(),
          req: cls.get(CLS_REQ),
          leak: cls.get('leak'),
        }));
      });

      expect(seen.id).toEqual(expect.any(String));
      expect(seen.id).not.toBe('outer');
      expect(seen.req).toBe(request);
      expect(seen.leak).toBeUndefined();
      await expect(
        scope!(request, {}, () => Promise.reject(new Error('failed'))),
      ).rejects.toThrow('failed');
    } finally {
      await app.close();
    }
  });

  it('without the middleware mounted, runs each call in a new, empty context, never the one it is called in', async () => {
    const { app, moduleRef } = await appWith({ global: true });
    try {
      const cls = app.get(ClsService);
      const scope = clsCallScope(moduleRef);
      const seen = await cls.run(async () => {
        cls.set('leak', 'outer');
        return scope!({}, {}, async () => ({
          active: cls.isActive(),
          leak: cls.get('leak'),
          req: cls.get(CLS_REQ),
        }));
      });

      expect(seen).toEqual({ active: true, leak: undefined, req: undefined });
    } finally {
      await app.close();
    }
  });

  it("uses the app's copy of nestjs-cls where it is not the required one (nestjs-cls 7's ES module build)", async () => {
    const { app, moduleRef } = await appWith({
      global: true,
      middleware: { mount: true, generateId: true, idGenerator: () => 'app' },
    });
    try {
      const cls = app.get(ClsService);
      // Another copy: its ClsService is not the app's, its middleware fails.
      const other = {
        ClsService: class {},
        ClsServiceManager,
        ClsMiddleware: class {
          use(): Promise<void> {
            return Promise.reject(new Error('plugins not initialized'));
          }
        },
      };
      const real = await import('nestjs-cls');
      const scope = clsCallScope(
        moduleRef,
        () => other,
        () => Promise.resolve(real),
      );
      await expect(
        scope!({ headers: {} }, {}, async () => cls.getId()),
      ).resolves.toBe('app');

      const none = clsCallScope(
        moduleRef,
        () => other,
        () => Promise.resolve(other),
      );
      await expect(none!({}, {}, async () => 1)).rejects.toThrow(
        'install one nestjs-cls',
      );
    } finally {
      await app.close();
    }
  });

  it("without the middleware mounted, runs the call in the app's copy's context too", async () => {
    const { app, moduleRef } = await appWith({ global: true });
    try {
      const cls = app.get(ClsService);
      // Another copy: its service runs the call outside the app's contexts.
      const other = {
        ClsService: class {},
        ClsServiceManager: {
          getClsService: () => ({
            run: (_: object, work: () => unknown) => work(),
          }),
        },
        ClsMiddleware,
      };
      const real = await import('nestjs-cls');
      const scope = clsCallScope(
        moduleRef,
        () => other,
        () => Promise.resolve(real),
      );
      const seen = await cls.run(async () => {
        cls.set('leak', 'outer');
        return scope!({}, {}, async () => cls.get('leak'));
      });

      expect(seen).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('tries a failed set-up again on the next call', async () => {
    const { app, moduleRef } = await appWith({ global: true });
    try {
      const real = await import('nestjs-cls');
      let imports = 0;
      const scope = clsCallScope(
        moduleRef,
        () => ({ ...real, ClsService: class {} }),
        () =>
          ++imports === 1
            ? Promise.reject(new Error('not loaded yet'))
            : Promise.resolve(real),
      );
      await expect(scope!({}, {}, async () => 1)).rejects.toThrow(
        'not loaded yet',
      );
      await expect(scope!({}, {}, async () => 2)).resolves.toBe(2);
      await expect(scope!({}, {}, async () => 3)).resolves.toBe(3);
      expect(imports).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('fails the call, not the process, where the middleware fails before next', async () => {
    const { app, moduleRef } = await appWith({
      global: true,
      middleware: {
        mount: true,
        setup: () => Promise.reject(new Error('setup failed')),
      },
    });
    try {
      const scope = clsCallScope(moduleRef);
      await expect(scope!({}, {}, async () => 1)).rejects.toThrow(
        'setup failed',
      );
    } finally {
      await app.close();
    }
  });

  it('is undefined where the app has no ClsModule, and never loads nestjs-cls then', async () => {
    const { app, moduleRef } = await appWith();
    try {
      let loaded = 0;
      expect(
        clsCallScope(moduleRef, () => {
          loaded++;
          return { ClsMiddleware, ClsServiceManager };
        }),
      ).toBeUndefined();
      // Loading it would enter a root context: async hooks for every promise.
      expect(loaded).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('is undefined where nestjs-cls is not installed, and throws where it does not load', async () => {
    mkdirSync(join(root, 'without/node_modules'), { recursive: true });
    const load = () =>
      createRequire(join(root, 'without', 'main.js'))('nestjs-cls');
    const { app, moduleRef } = await appWith({
      middleware: { mount: true },
    });
    try {
      expect(clsCallScope(moduleRef, load)).toBeUndefined();
      expect(() =>
        clsCallScope(moduleRef, () => {
          throw new Error('broken');
        }),
      ).toThrow('broken');
    } finally {
      await app.close();
    }
  });
});
