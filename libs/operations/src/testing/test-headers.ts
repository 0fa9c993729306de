/**
 * The headers of a simulated caller, names in any case:
 * `{ Authorization: 'Bearer t', 'X-Tenant-Id': 'acme', 'Accept-Language': 'zh-CN' }`.
 *
 * @publicApi
 */
export type TestHeaders = Readonly<
  Record<string, string | readonly string[] | undefined>
>;

/**
 * The headers as a carrier hands them to the pipeline: names in lower case,
 * as Node's HTTP server gives them.
 *
 * @publicApi
 */
export function carrierHeaders(
  ...sources: readonly (TestHeaders | undefined)[]
): Record<string, string | string[] | undefined> {
  const headers: Record<string, string | string[] | undefined> = {};
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) {
      headers[name.toLowerCase()] = Array.isArray(value)
        ? [...(value as readonly string[])]
        : (value as string | undefined);
    }
  }
  return headers;
}
