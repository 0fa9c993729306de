import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

/** `greet`'s argument. */
export class GreetInput {
  @IsString()
  name!: string;
}

/** `slow_compute`'s arguments. */
export class SlowComputeInput {
  @IsInt()
  @Min(0)
  @Max(600)
  seconds!: number;

  @IsOptional()
  @IsString()
  label?: string;
}

/** `confirm_delete`'s argument. */
export class DeleteInput {
  @IsString()
  filename!: string;
}
