import { loadOptionalPeer } from '../nest/optional-peer.js';

export { isMissingPackage } from '../nest/optional-peer.js';

/** The optional peer the message catalogue comes from. */
export const NESTJS_I18N = 'nestjs-i18n';

/** What the library uses of nestjs-i18n's `I18nService`. */
export interface I18nCatalogueService {
  getSupportedLanguages(): string[];
  resolveLanguage(lang: string): string;
  translate(
    key: string,
    options?: {
      lang?: string;
      args?: Readonly<Record<string, string | number>>;
      defaultValue?: string;
      returnObjects?: boolean;
    },
  ): unknown;
}

/** What the library uses of nestjs-i18n's module options (`I18N_OPTIONS`). */
export interface I18nCatalogueOptions {
  readonly fallbackLanguage?: string;
}

/** The injection tokens of nestjs-i18n that the library looks up. */
export interface NestjsI18nTokens {
  readonly I18nService: abstract new (...args: never[]) => I18nCatalogueService;
  readonly I18N_OPTIONS: string;
}

/**
 * The application's nestjs-i18n, or undefined when it is not installed. It
 * is an optional peer: an app that does not install it runs with the
 * library's own (English) texts. Loaded with `require`, so that the app's
 * single copy (whose `I18nService` class is the app's injection token) is
 * the one found, and with the package named literally, so that bundlers
 * see an optional dependency. A nestjs-i18n that is installed but fails to
 * load (one of its own dependencies missing, say) is an error, not an
 * absence.
 */
export function loadNestjsI18n(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only if installed
  load: () => unknown = () => require('nestjs-i18n'),
): NestjsI18nTokens | undefined {
  return loadOptionalPeer<NestjsI18nTokens>(NESTJS_I18N, load);
}
