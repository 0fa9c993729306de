import {
  type ArgumentMetadata,
  BadRequestException,
  Injectable,
  type PipeTransform,
} from '@nestjs/common';

/**
 * NUL or a lone surrogate (with the `u` flag a well-formed pair is one code
 * point outside the class): the text MCP input refuses.
 */
const UNSAFE_TEXT = /[\0\uD800-\uDFFF]/u;

/**
 * The REST routes' copy of the rule the library applies to operation input
 * (`VALIDATION_INVALID_001`, same messages): a string anywhere in the body,
 * query or route parameters with NUL or a lone surrogate is a 400, before
 * anything is written (PostgreSQL refuses NUL, and stores U+FFFD for a lone
 * surrogate). The library exports no such check, so the rule is copied here.
 */
@Injectable()
export class SafeTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'custom') {
      const problems = unsafeText(value, metadata.data ?? '');
      if (problems.length > 0) {
        throw new BadRequestException(problems);
      }
    }
    return value;
  }
}

/** A message for each string in `value` with NUL or a lone surrogate. */
function unsafeText(value: unknown, path: string, depth = 0): string[] {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? [`${path || 'input'} ${problem}`] : [];
  }
  // Past the body parser's own nesting limits: a backstop.
  if (typeof value !== 'object' || value === null || depth > 64) {
    return [];
  }
  // Property names: the global ValidationPipe (forbidNonWhitelisted) has
  // already refused any the DTOs do not declare.
  return Object.entries(value).flatMap(([key, item]) =>
    unsafeText(item, path ? `${path}.${key}` : key, depth + 1),
  );
}

/** What is wrong with `text`, as the library words it, or undefined. */
function textProblem(text: string): string | undefined {
  const found = UNSAFE_TEXT.exec(text)?.[0];
  if (found === undefined) {
    return undefined;
  }
  return found === '\0'
    ? 'must not contain NUL characters'
    : 'must be well-formed Unicode (it has a lone surrogate)';
}
