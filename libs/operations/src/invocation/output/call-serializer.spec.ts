import { IsInt, IsString } from 'class-validator';
import type { OperationDefinition } from '../../interfaces/operation-contract.js';
import { OperationSchemaFactory } from '../../schema/operation-schema.factory.js';
import { CallSerializer } from './call-serializer.js';
import { markCarried } from './carried-result.js';
import { OutputContractError } from './output-contract.error.js';

class ParcelDto {
  @IsInt()
  id: number;

  @IsString()
  region: string;
}

const parcels = {
  id: 'parcels.get',
  output: ParcelDto,
  outputSchema: new OperationSchemaFactory().create(ParcelDto),
} as OperationDefinition;
const untyped = { id: 'parcels.peek' } as OperationDefinition;

/** What a carrier's wrapper is to the core: an object marked with its structured part. */
const wrapped = (structured: unknown) =>
  markCarried({ image: 'for the carrier' }, structured);

describe('CallSerializer, a result wrapped for its carrier', () => {
  it('serialises the structured part under the output contract and keeps the wrapper as carried', () => {
    const wrapper = wrapped({ id: 7, region: 'eu', secret: 'x' });
    const result = new CallSerializer(parcels).serialize(wrapper);
    expect(result.value).toEqual({ id: 7, region: 'eu' });
    expect(result.json).toBe('{"id":7,"region":"eu"}');
    expect(result.carried).toBe(wrapper);
    // The mark is not a property anyone enumerates or serialises.
    expect(Object.keys(wrapper)).toEqual(['image']);
  });

  it('refuses a structured part that breaks the output contract', () => {
    expect(() =>
      new CallSerializer(parcels).serialize(wrapped({ id: 'seven' })),
    ).toThrow(
      new OutputContractError(
        'parcels.get',
        'ParcelDto',
        "(root) must have required property 'region', (root)/id must be integer",
      ),
    );
    expect(() =>
      new CallSerializer(parcels).serialize(wrapped(undefined)),
    ).toThrow(
      new OutputContractError(
        'parcels.get',
        'ParcelDto',
        'it returned undefined',
      ),
    );
  });

  it('without an output DTO, a wrapper with no structured part is null, and a plain value has no carried', () => {
    const wrapper = wrapped(undefined);
    expect(new CallSerializer(untyped).serialize(wrapper)).toEqual({
      value: null,
      json: 'null',
      carried: wrapper,
    });
    expect(new CallSerializer(untyped).serialize({ a: 1 })).toEqual({
      value: { a: 1 },
      json: '{"a":1}',
    });
  });

  it('serialises the same wrapper once', () => {
    const serializer = new CallSerializer(parcels);
    const wrapper = wrapped({ id: 1, region: 'us' });
    expect(serializer.serialize(wrapper)).toBe(serializer.serialize(wrapper));
  });
});
