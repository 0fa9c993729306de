import { BadRequestException, PipeTransform } from '@nestjs/common';

/**
 * The input pipe of an operation without an input DTO: it takes no
 * properties, so any property is rejected as unknown, as a DTO with
 * `forbidNonWhitelisted` would.
 */
export class NoInputPipe implements PipeTransform {
  transform(value: unknown): Record<string, never> {
    const keys =
      typeof value === 'object' && value !== null ? Object.keys(value) : [];
    if (keys.length > 0) {
      throw new BadRequestException(
        keys.map((key) => `property ${key} should not exist`),
      );
    }
    return {};
  }
}
