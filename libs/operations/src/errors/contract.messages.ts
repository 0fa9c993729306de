export const CONTRACT_INVALID_ID = 'CONTRACT_VALIDATION_001';
export const CONTRACT_INVALID_OPTION = 'CONTRACT_VALIDATION_002';
export const CONTRACT_DUPLICATE_ID = 'CONTRACT_CONFLICT_001';
export const AMBIGUOUS_DTO_NAME = 'CONTRACT_CONFLICT_002';
export const CONTRACT_DUPLICATE_RESOURCE = 'CONTRACT_CONFLICT_003';
export const UNRESOLVED_SCHEMA_REF = 'CONTRACT_VALIDATION_003';

export const invalidIdMessage = (id: unknown, where: string) =>
  `Operation id ${JSON.stringify(id)} on ${where} is not '<resource>.<verb>' (letters, digits and '-', segments joined by '.').`;

export const invalidOptionMessage = (
  id: string,
  where: string,
  problem: string,
  kind = 'Operation',
) => `${kind} '${id}' on ${where}: ${problem}`;

export const duplicateIdMessage = (
  id: string,
  first: string,
  second: string,
  kind = 'Operation',
) => `${kind} '${id}' is declared twice: on ${first} and on ${second}.`;

export const CONTRACT_UNKNOWN_LIKE = 'CONTRACT_VALIDATION_005';

export const unknownLikeMessage = (
  kind: string,
  id: string,
  where: string,
  like: string,
) =>
  `${kind} '${id}' on ${where} runs with the rights of ${like}, which the app does not have; name an existing one.`;

export const duplicateResourceMessage = (
  uri: string,
  first: string,
  second: string,
) =>
  `Resource '${uri}' is declared twice: by operation '${first}' and by operation '${second}'; give each its own URI.`;

export const ambiguousDtoNameMessage = (name: string, usedBy: string) =>
  `${usedBy} uses the DTO class name '${name}', which several classes have; JSON Schemas are keyed by class name, so rename one of them.`;

export const unresolvedSchemaRefMessage = (name: string, usedBy: string) =>
  `${usedBy} refers to the nested class '${name}', which has no class-validator decorators; decorate its properties.`;

export const ROUTE_PARAMETER = 'CONTRACT_VALIDATION_004';

/** Nest's own route parameter decorators, by their route parameter type. */
const ROUTE_DECORATORS: Readonly<Record<string, string>> = {
  REQUEST: '@Req()',
  RESPONSE: '@Res()',
  NEXT: '@Next()',
  BODY: '@Body()',
  QUERY: '@Query()',
  PARAM: '@Param()',
  HEADERS: '@Headers()',
  SESSION: '@Session()',
  FILE: '@UploadedFile()',
  FILES: '@UploadedFiles()',
  HOST: '@HostParam()',
  IP: '@Ip()',
  RAW_BODY: '@RawBody()',
};

export const routeParameterMessage = (
  id: string,
  where: string,
  index: number,
  type: string,
) =>
  `Operation '${id}' on ${where}: its parameter ${index + 1} has ${type === 'custom' ? 'a parameter decorator' : (ROUTE_DECORATORS[type] ?? `Nest's ${type} route parameter decorator`)}, which means nothing for a tool call: ${
    index === 0
      ? "the first parameter is the operation's input (undecorated, or a bare @Body())."
      : 'a call has no HTTP request, response, query or route parameters of its own. Take what the method needs from its input (the first parameter), from the invocation context (the second, undecorated), or with a decorator of the app made with createParamDecorator().'
  }`;
