import { registerOtelSdk } from './otel-sdk';

/**
 * The SDK with the HTTP and TypeORM instrumentations, registered when this
 * module loads: import it before anything that loads the app.
 */
export const otel = registerOtelSdk(true);
