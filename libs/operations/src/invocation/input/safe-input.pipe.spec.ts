import { BadRequestException } from '@nestjs/common';
import { IsString } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { AllowRawText } from './allow-raw-text.decorator.js';
import { SafeInputPipe } from './safe-input.pipe.js';

class SafeNoteDto {
  @IsString()
  text: string;

  @AllowRawText()
  @IsString()
  blob: string;
}

const pipe = new SafeInputPipe();

/** The messages of the 400 `run` throws. */
function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).getResponse();
  }
  throw new Error('not refused');
}

describe('SafeInputPipe', () => {
  it('refuses a body with NUL or a lone surrogate with 400, naming the property as operations do', () => {
    const body = { metatype: SafeNoteDto, type: 'body' } as const;
    expect(
      refusal(() => pipe.transform({ text: 'a\u0000b' }, body)),
    ).toMatchObject({
      statusCode: 400,
      message: ['text must not contain NUL characters'],
    });
    expect(
      refusal(() => pipe.transform({ text: 'a\ud800' }, body)),
    ).toMatchObject({
      message: ['text must be well-formed Unicode (it has a lone surrogate)'],
    });
  });

  it('names a route or query parameter by its name', () => {
    expect(
      refusal(() =>
        pipe.transform('7\u0000', {
          type: 'param',
          data: 'id',
          metatype: String,
        }),
      ),
    ).toMatchObject({ message: ['id must not contain NUL characters'] });
  });

  it('passes well-formed text, surrogate pairs, @AllowRawText() properties and custom parameters', () => {
    const body = { metatype: SafeNoteDto, type: 'body' } as const;
    expect(
      pipe.transform({ text: 'tea 🍵', blob: '\u0000\ud800' }, body),
    ).toEqual({
      text: 'tea 🍵',
      blob: '\u0000\ud800',
    });
    expect(pipe.transform('\u0000', { type: 'custom' })).toBe('\u0000');
  });

  it('passes the value on as it is, and refuses a key naming an Object.prototype member', () => {
    const body = { metatype: SafeNoteDto, type: 'body' } as const;
    const dto = Object.assign(new SafeNoteDto(), { text: 'x' });
    expect(pipe.transform(dto, body)).toBe(dto);
    expect(
      refusal(() => pipe.transform({ text: 'x', toString: 'y' }, body)),
    ).toMatchObject({ statusCode: 400 });
  });
});
