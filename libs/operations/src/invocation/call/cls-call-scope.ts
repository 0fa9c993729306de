import type { ModuleRef } from '@nestjs/core';
import { loadOptionalPeer } from '../../nest/optional-peer.js';

/** The optional peer whose contexts calls run in. */
const NESTJS_CLS = 'nestjs-cls';

/** nestjs-cls's token of its middleware's options (its `CLS_MIDDLEWARE_OPTIONS`). */
const MIDDLEWARE_OPTIONS = 'ClsMiddlewareOptions';

type Next = (error?: unknown) => void;

/** What the library uses of nestjs-cls. */
interface NestjsCls {
  readonly ClsMiddleware: new (options: object) => {
    use(request: object, response: object, next: Next): unknown;
  };
  readonly ClsServiceManager: {
    getClsService(): {
      run(options: { ifNested: 'override' }, callback: () => unknown): unknown;
    };
  };
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
): CallScope | undefined {
  // The app's ClsModule first: an app without one never loads nestjs-cls,
  // whose loading gives the whole process async hooks (a root context it
  // enters), which every promise of every request then pays for.
  const options = middlewareOptions(moduleRef);
  const cls = options && loadOptionalPeer<NestjsCls>(NESTJS_CLS, load);
  if (!cls || !options) {
    return undefined;
  }
  const service = cls.ClsServiceManager.getClsService();
  if (!options.mount) {
    // The app's own contexts come otherwise (its ClsGuard or ClsInterceptor,
    // which run on the call as on a request; its own `ClsService#run`
    // around requests): the call gets a new, empty one.
    return (_request, _response, work) =>
      service.run({ ifNested: 'override' }, work) as ReturnType<typeof work>;
  }
  const middleware = new cls.ClsMiddleware(options);
  return (request, response, work) =>
    new Promise((resolve, reject) => {
      service.run({ ifNested: 'override' }, () =>
        middleware.use(request, response, (error) => {
          if (error === undefined) {
            work().then(resolve, reject);
          } else {
            reject(error);
          }
        }),
      );
    });
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
