export { OperationTestClient } from './operation-test-client.js';
export type { OperationTestOptions } from './operation-test-client.js';
export { carrierHeaders } from './test-headers.js';
export type { TestHeaders } from './test-headers.js';
export { createTestApplication } from './test-application.js';
export type { TestApplicationSource } from './test-application.js';
