export const CONTRACT_INVALID_ID = 'CONTRACT_VALIDATION_001';
export const CONTRACT_INVALID_OPTION = 'CONTRACT_VALIDATION_002';
export const CONTRACT_DUPLICATE_ID = 'CONTRACT_CONFLICT_001';
export const AMBIGUOUS_DTO_NAME = 'CONTRACT_CONFLICT_002';
export const UNRESOLVED_SCHEMA_REF = 'CONTRACT_VALIDATION_003';

export const invalidIdMessage = (id: unknown, where: string) =>
  `Operation id ${JSON.stringify(id)} on ${where} is not '<resource>.<verb>' (letters, digits and '-', segments joined by '.').`;

export const invalidOptionMessage = (
  id: string,
  where: string,
  problem: string,
) => `Operation '${id}' on ${where}: ${problem}`;

export const duplicateIdMessage = (id: string, first: string, second: string) =>
  `Operation '${id}' is declared twice: on ${first} and on ${second}.`;

export const ambiguousDtoNameMessage = (name: string, usedBy: string) =>
  `${usedBy} uses the DTO class name '${name}', which several classes have; JSON Schemas are keyed by class name, so rename one of them.`;

export const unresolvedSchemaRefMessage = (name: string, usedBy: string) =>
  `${usedBy} refers to the nested class '${name}', which has no class-validator decorators; decorate its properties.`;
