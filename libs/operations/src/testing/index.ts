/**
 * `@nestops/operations/testing`: call an app's operations in its tests as a
 * carrier would, through the same pipeline (`OperationTestClient`), on an
 * application booted as `main.ts` boots it (`createTestApplication`).
 *
 * @packageDocumentation
 */

export { OperationTestClient } from './operation-test-client.js';
export type {
  OperationTestOptions,
  TestQuestion,
} from './operation-test-client.js';
export type { TestHeaders } from './test-headers.js';
export { createTestApplication } from './test-application.js';
