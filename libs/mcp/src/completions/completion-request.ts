import { IsObject, IsOptional, IsString } from 'class-validator';

/**
 * What a `@Complete()` method receives: the argument being completed, what
 * the user typed of it so far, and the other arguments already given.
 *
 * @publicApi
 */
export class CompletionRequest {
  /** The argument (or template variable) being completed. */
  @IsString()
  argument!: string;

  /** What the user has typed of it so far; may be empty. */
  @IsString()
  value!: string;

  /** The other arguments already given, by name. */
  @IsOptional()
  @IsObject()
  arguments?: Record<string, string>;
}
