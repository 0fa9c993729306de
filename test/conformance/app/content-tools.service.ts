import { Injectable } from '@nestjs/common';
import { McpContent, McpResult } from '@nestops/mcp';
import { Operation } from '@nestops/operations';

/** A 1x1 red pixel, as PNG. */
const RED_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

/**
 * The conformance suite's tools whose results are content blocks rather
 * than JSON (`tools-call-image`, `-audio`, `-embedded-resource`,
 * `-mixed-content`): each returns an `McpResult` made with `McpContent`.
 */
@Injectable()
export class ContentToolsService {
  @Operation({
    id: 'content.image',
    input: null,
    readOnly: true,
    description: 'Returns a 1x1 red pixel as a PNG image.',
  })
  image(): McpResult {
    return McpResult.content(McpContent.image(RED_PIXEL_PNG, 'image/png'));
  }

  @Operation({
    id: 'content.audio',
    input: null,
    readOnly: true,
    description: 'Returns a tenth of a second of silence as a WAV sound.',
  })
  audio(): McpResult {
    return McpResult.content(McpContent.audio(silentWav(800), 'audio/wav'));
  }

  @Operation({
    id: 'content.embedded-resource',
    input: null,
    readOnly: true,
    description: 'Returns a text resource embedded in the result.',
  })
  embeddedResource(): McpResult {
    return McpResult.content(
      McpContent.resource({
        uri: 'test://embedded-resource',
        mimeType: 'text/plain',
        text: 'This is an embedded resource content.',
      }),
    );
  }

  @Operation({
    id: 'content.mixed',
    input: null,
    readOnly: true,
    description: 'Returns a text, an image and an embedded JSON resource.',
  })
  mixed(): McpResult {
    return McpResult.content(
      McpContent.text('Multiple content types test:'),
      McpContent.image(RED_PIXEL_PNG, 'image/png'),
      McpContent.resource({
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: JSON.stringify({ test: 'data', value: 123 }),
      }),
    );
  }
}

/** A WAV file of `samples` silent samples: 8 kHz, 8-bit, mono. */
function silentWav(samples: number): Buffer {
  const wav = Buffer.alloc(44 + samples, 0x80);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16); // the fmt chunk's size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(8000, 24); // samples a second
  wav.writeUInt32LE(8000, 28); // bytes a second
  wav.writeUInt16LE(1, 32); // bytes a sample
  wav.writeUInt16LE(8, 34); // bits a sample
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(samples, 40);
  return wav;
}
