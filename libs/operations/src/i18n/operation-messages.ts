import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { OperationFailure } from '../errors/operation-failure.js';
import { describeFailure, type MessageLookup } from '../errors/failure-text.js';
import {
  interpolate,
  LIBRARY_LANGUAGE,
  libraryText,
} from './library-messages.js';
import { negotiateLocale } from './locale-negotiation.js';
import {
  loadNestjsI18n,
  type I18nCatalogueOptions,
  type I18nCatalogueService,
} from './nestjs-i18n.peer.js';

type Args = Readonly<Record<string, string | number>>;

interface Catalogue {
  readonly service?: I18nCatalogueService;
  readonly fallback: string;
}

/**
 * The message catalogue of operation calls: the application's nestjs-i18n
 * catalogue when it imports `I18nModule` (the library never creates one),
 * with the library's own texts (`en-US`, `zh-CN`) under the `nestops`
 * namespace beneath it. Without `I18nModule`, or without nestjs-i18n
 * installed (an optional peer), every text is English.
 *
 * Carriers use it to pick the caller's language and to render failures;
 * operations can inject it too.
 *
 * @publicApi
 */
@Injectable()
export class OperationMessages {
  private catalogue?: Catalogue;

  constructor(private readonly moduleRef: ModuleRef) {}

  /** The application's languages (nestjs-i18n's supported languages), or `['en-US']`. */
  languages(): readonly string[] {
    const { service, fallback } = this.resolve();
    const languages = service?.getSupportedLanguages() ?? [];
    return languages.includes(fallback) ? languages : [fallback, ...languages];
  }

  /** The language used when the caller names none the application has. */
  fallbackLanguage(): string {
    return this.resolve().fallback;
  }

  /**
   * The application language that serves `preference` best: an
   * `Accept-Language` value (quality values honoured, `zh` matching `zh-CN`,
   * the app's nestjs-i18n `fallbacks` applied) or a single tag such as a
   * `--locale` option. Unknown or absent: the fallback language. Negotiated
   * on every call (about a microsecond), so nothing is remembered per
   * distinct header.
   */
  localeOf(preference: string | undefined): string {
    const { service, fallback } = this.resolve();
    if (!service) {
      return fallback;
    }
    return negotiateLocale(
      preference,
      service.getSupportedLanguages(),
      fallback,
      (tag) => service.resolveLanguage(tag),
    );
  }

  /**
   * The language a caller's calls run in, negotiated as `localeOf` does:
   * from `locale` when given (a preference apart from the headers, such as
   * a `--locale` option), else from the whole `accept-language` of
   * `headers` (a header sent more than once is one list, as HTTP reads it).
   * Carriers use it for what they render themselves (a tool list); a call's
   * own language is decided by `OperationInvoker` in the same way.
   */
  callerLocale(
    headers: Readonly<Record<string, string | string[] | undefined>>,
    locale?: string,
  ): string {
    const header = headers['accept-language'];
    return this.localeOf(
      locale ?? (Array.isArray(header) ? header.join(', ') : header),
    );
  }

  /**
   * The application catalogue's text of `key` in `locale` (nestjs-i18n's
   * language fallbacks apply), or undefined when it has none.
   */
  text(
    key: string,
    locale: string,
    args?: Readonly<Record<string, string | number>>,
  ): string | undefined {
    const { service } = this.resolve();
    return service ? translate(service, key, locale, args) : undefined;
  }

  /**
   * Whether the application catalogue has any text at or under `key` in
   * `locale` (nestjs-i18n's language fallbacks apply): `dto.OrderDto` when
   * some `dto.OrderDto.<property>` exists. Lets a caller skip a whole group
   * of keys with one lookup.
   */
  hasTexts(key: string, locale: string): boolean {
    const { service } = this.resolve();
    if (!service) {
      return false;
    }
    try {
      const found: unknown = service.translate(key, {
        lang: locale,
        returnObjects: true,
      });
      return (
        (typeof found === 'string' && found !== key) ||
        (typeof found === 'object' && found !== null)
      );
    } catch {
      return false;
    }
  }

  /** `<CODE>: <message>` in `locale`; the code never depends on the language. */
  describe(failure: OperationFailure, locale: string): string {
    return describeFailure(failure, this.lookup(locale));
  }

  /**
   * A key's text in `locale`: the application's translation first, then the
   * library's own in that language; for a language the library does not
   * ship, the application's fallback chain, then the library's English.
   */
  private lookup(locale: string): MessageLookup {
    const { service } = this.resolve();
    return (key, args) => {
      const own = libraryText(key, locale);
      const found =
        service && translate(service, key, locale, args, own ?? undefined);
      if (found !== undefined) {
        return found;
      }
      const library = own ?? libraryText(key, LIBRARY_LANGUAGE);
      return library === undefined ? undefined : interpolate(library, args);
    };
  }

  private resolve(): Catalogue {
    if (!this.catalogue) {
      const i18n = loadNestjsI18n();
      const service =
        i18n && this.optional<I18nCatalogueService>(i18n.I18nService);
      const options =
        service && this.optional<I18nCatalogueOptions>(i18n.I18N_OPTIONS);
      this.catalogue = Object.freeze({
        service,
        fallback: options?.fallbackLanguage ?? LIBRARY_LANGUAGE,
      });
    }
    return this.catalogue;
  }

  private optional<T>(
    token: string | (abstract new (...args: never[]) => T),
  ): T | undefined {
    try {
      return this.moduleRef.get<T>(token, { strict: false });
    } catch {
      return undefined;
    }
  }
}

/**
 * nestjs-i18n's translation, or undefined where the key is missing (it
 * answers with the key itself, or throws with `throwOnMissingKey`) or its
 * text cannot be formatted. A `defaultValue` is used, formatted, where the
 * language has no such key.
 */
function translate(
  service: I18nCatalogueService,
  key: string,
  lang: string,
  args?: Args,
  defaultValue?: string,
): string | undefined {
  try {
    const text: unknown = service.translate(key, {
      lang,
      ...(args ? { args } : {}),
      ...(defaultValue !== undefined ? { defaultValue } : {}),
    });
    return typeof text === 'string' && text !== key ? text : undefined;
  } catch {
    return undefined;
  }
}
