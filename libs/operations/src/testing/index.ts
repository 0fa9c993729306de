export { OperationTestClient } from './operation-test-client';
export type { OperationTestOptions } from './operation-test-client';
export { carrierHeaders } from './test-headers';
export type { TestHeaders } from './test-headers';
