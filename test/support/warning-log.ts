import type { LoggerService } from '@nestjs/common';

/** An app's logger that keeps its warnings, for the startup-warning checks. */
export class WarningLog implements LoggerService {
  readonly warnings: string[] = [];
  log(): void {}
  error(): void {}
  debug(): void {}
  verbose(): void {}
  warn(message: unknown): void {
    this.warnings.push(String(message));
  }
}
