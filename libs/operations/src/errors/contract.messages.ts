export const CONTRACT_INVALID_ID = 'CONTRACT_VALIDATION_001';
export const CONTRACT_INVALID_OPTION = 'CONTRACT_VALIDATION_002';
export const CONTRACT_DUPLICATE_ID = 'CONTRACT_CONFLICT_001';

export const invalidIdMessage = (id: unknown, where: string) =>
  `Operation id ${JSON.stringify(id)} on ${where} is not '<resource>.<verb>' (letters, digits and '-', segments joined by '.').`;

export const invalidOptionMessage = (
  id: string,
  where: string,
  problem: string,
) => `Operation '${id}' on ${where}: ${problem}`;

export const duplicateIdMessage = (id: string, first: string, second: string) =>
  `Operation '${id}' is declared twice: on ${first} and on ${second}.`;
