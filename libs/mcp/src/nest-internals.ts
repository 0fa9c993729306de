/**
 * The one place of this library that touches Nest internals.
 */
export { ExecutionContextHost } from '@nestjs/core/internal';
