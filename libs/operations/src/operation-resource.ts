import type { OperationOptions } from './interfaces/operation-contract.js';
import type { OperationResource } from './interfaces/operation-resource.interface.js';
import type { JsonSchema } from './schema/json-schema.interface.js';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const EXPRESSION = /\{([^{}]*)\}/g;
const VARIABLE = /^[A-Za-z0-9_]+$/;
const MIME_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

/**
 * `@Operation({ resource })` checked against the rest of the contract: a
 * URI with a scheme (a template of `{name}` variables, each an input
 * property, that gives every required one), on a read-only operation. A
 * problem is thrown as `invalid` makes it.
 */
export function operationResource(
  option: OperationOptions['resource'],
  readOnly: boolean,
  inputSchema: JsonSchema | undefined,
  invalid: (problem: string) => Error,
): OperationResource | undefined {
  if (option === undefined) {
    return undefined;
  }
  const { uri, mimeType } =
    typeof option === 'string'
      ? { uri: option, mimeType: undefined }
      : typeof option === 'object' && option !== null
        ? option
        : { uri: undefined, mimeType: undefined };
  if (typeof uri !== 'string' || !SCHEME.test(uri)) {
    throw invalid(
      'resource must be a URI with a scheme (orders://recent), a URI template (orders://{id}) or { uri, mimeType }.',
    );
  }
  if (
    mimeType !== undefined &&
    (typeof mimeType !== 'string' || !MIME_TYPE.test(mimeType))
  ) {
    throw invalid(
      `resource's mimeType must be a MIME type such as text/plain, not ${JSON.stringify(mimeType)}.`,
    );
  }
  if (!readOnly) {
    throw invalid(
      `resource '${uri}' is read, so the operation must be read-only (a get or list verb, or readOnly: true).`,
    );
  }
  const variables = templateVariables(uri, invalid);
  const properties = Object.keys(inputSchema?.properties ?? {});
  for (const variable of variables) {
    if (!properties.includes(variable)) {
      throw invalid(
        `resource '${uri}' names {${variable}}, which is not a property of its input${properties.length > 0 ? ` (${properties.join(', ')})` : ''}.`,
      );
    }
  }
  const missing = (inputSchema?.required ?? []).filter(
    (name) => !variables.includes(name),
  );
  if (missing.length > 0) {
    throw invalid(
      `resource '${uri}' does not give the required input ${missing.map((name) => `'${name}'`).join(', ')}; name ${missing.length > 1 ? 'them' : 'it'} in the URI template (${uri.replace(/\/?$/, '')}/{${missing[0]}}).`,
    );
  }
  return Object.freeze({
    uri,
    variables: Object.freeze(variables),
    ...(mimeType !== undefined ? { mimeType } : {}),
  });
}

/** The `{name}` variables of a URI template, in order; a fixed URI has none. */
function templateVariables(
  uri: string,
  invalid: (problem: string) => Error,
): string[] {
  const variables: string[] = [];
  for (const [, name] of uri.matchAll(EXPRESSION)) {
    if (!VARIABLE.test(name)) {
      throw invalid(
        `resource '${uri}' has the expression {${name}}; a template variable is a plain {name} of letters, digits and _.`,
      );
    }
    if (variables.includes(name)) {
      throw invalid(`resource '${uri}' names {${name}} twice.`);
    }
    variables.push(name);
  }
  if (uri.replace(EXPRESSION, '').match(/[{}]/)) {
    throw invalid(`resource '${uri}' has an unbalanced { or }.`);
  }
  return variables;
}
