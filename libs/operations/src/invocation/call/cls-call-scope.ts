import type { ModuleRef } from '@nestjs/core';
import { loadOptionalPeer } from '../../nest/optional-peer.js';

/** The optional peer whose contexts calls run in. */
const NESTJS_CLS = 'nestjs-cls';

/** nestjs-cls's token of its middleware's options (its `CLS_MIDDLEWARE_OPTIONS`). */
const MIDDLEWARE_OPTIONS = 'ClsMiddlewareOptions';

type Next = (error?: unknown) => void;

/** nestjs-cls's middleware, constructed with the app's options. */
interface Middleware {
  use(request: object, response: object, next: Next): unknown;
}

/** What the library uses of nestjs-cls. */
interface NestjsCls {
  /** The token of its `ClsService` provider. */
  readonly ClsService: abstract new (...args: never[]) => unknown;
  readonly ClsMiddleware: new (options: object) => Middleware;
  readonly ClsServiceManager: { getClsService(): ClsRunner };
}

/** What the library uses of `ClsService`. */
interface ClsRunner {
  run(options: { ifNested: 'override' }, callback: () => unknown): unknown;
}

/** The app's copy's service, and its middleware where the app mounts it. */
interface Scope {
  readonly service: ClsRunner;
  readonly middleware?: Middleware;
}

/** Runs one call's work (its guards, interceptors, pipes and method) inside the call's own context. */
export type CallScope = <T>(
  request: object,
  response: object,
  work: () => Promise<T>,
) => Promise<T>;

/**
 * Where the app uses nestjs-cls (it imports `ClsModule`), each call runs in
 * a CLS context of its own, as each HTTP request runs in one: a new
 * context, never the outer request's nor another call's of the same
 * batch. Where the app mounts nestjs-cls's middleware
 * (`middleware: { mount: true }`), that `ClsMiddleware`, with the app's
 * middleware options, sets the call's context up for the call's request
 * and response as it sets a request's up: `CLS_ID` is the app's
 * `idGenerator`'s for the call, `CLS_REQ` the call's request (whose `user`
 * the app's authentication sets), and the app's `setup`, plugins and
 * proxy providers run (and cost what they cost on a request). Undefined
 * where nestjs-cls is not installed or the app has no `ClsModule`; an app
 * without one never loads nestjs-cls.
 */
export function clsCallScope(
  moduleRef: ModuleRef,
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only if installed
  load: () => unknown = () => require('nestjs-cls'),
  importModule: () => Promise<unknown> = () => import('nestjs-cls'),
): CallScope | undefined {
  // The app's ClsModule first: an app without one never loads nestjs-cls,
  // whose loading gives the whole process async hooks (a root context it
  // enters), which every promise of every request then pays for.
  const options = middlewareOptions(moduleRef);
  const cls = options && loadOptionalPeer<NestjsCls>(NESTJS_CLS, load);
  if (!cls || !options) {
    return undefined;
  }
  // Set up on the first call (the app's copy may be an ES module); a
  // failed set-up is tried again on the next call.
  let ready: Promise<Scope> | undefined;
  return async (request, response, work) => {
    const { service, middleware } = await (ready ??= appsCopy(
      moduleRef,
      cls,
      importModule,
    ).then(
      (copy) => ({
        service: copy.ClsServiceManager.getClsService(),
        middleware: options.mount ? new copy.ClsMiddleware(options) : undefined,
      }),
      (error: unknown) => {
        ready = undefined;
        throw error;
      },
    ));
    if (!middleware) {
      // The app's own contexts come otherwise (its ClsGuard or
      // ClsInterceptor, which run on the call as on a request; its own
      // `ClsService#run` around requests): the call gets a new, empty one.
      return service.run({ ifNested: 'override' }, work) as ReturnType<
        typeof work
      >;
    }
    return new Promise((resolve, reject) => {
      service.run({ ifNested: 'override' }, () =>
        // A middleware that fails before `next` fails the call.
        Promise.resolve(
          middleware.use(request, response, (error) => {
            if (error === undefined) {
              work().then(resolve, reject);
            } else {
              reject(error);
            }
          }),
        ).catch(reject),
      );
    });
  };
}

/**
 * The copy of nestjs-cls whose `ClsModule` the app imports. nestjs-cls 7
 * ships an ES module build beside its CommonJS one: an ES module app
 * (Nest 12's starter) imports that copy, whose middleware has its own
 * plugins and proxy providers, while this CommonJS library `require`s the
 * other.
 */
async function appsCopy(
  moduleRef: ModuleRef,
  required: NestjsCls,
  importModule: () => Promise<unknown>,
): Promise<NestjsCls> {
  if (provides(moduleRef, required)) {
    return required;
  }
  const imported = (await importModule()) as NestjsCls;
  if (provides(moduleRef, imported)) {
    return imported;
  }
  throw new Error(
    "The app's ClsModule comes from a copy of nestjs-cls that @nestops/operations does not load: install one nestjs-cls, where both resolve it.",
  );
}

/** Whether the app's container has the `ClsService` of this copy. */
function provides(moduleRef: ModuleRef, copy: NestjsCls): boolean {
  try {
    moduleRef.get(copy.ClsService, { strict: false });
    return true;
  } catch {
    return false;
  }
}

/** What the library reads of nestjs-cls's middleware options. */
interface MiddlewareOptions {
  /** Whether the app mounts the middleware on every route. */
  readonly mount?: boolean;
}

function middlewareOptions(
  moduleRef: ModuleRef,
): MiddlewareOptions | undefined {
  try {
    return moduleRef.get<MiddlewareOptions>(MIDDLEWARE_OPTIONS, {
      strict: false,
    });
  } catch {
    return undefined;
  }
}
