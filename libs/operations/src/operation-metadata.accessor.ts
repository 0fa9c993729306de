import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { OperationOptions } from './interfaces/operation-contract.js';
import { OPERATION_METADATA } from './operations.constants.js';

@Injectable()
export class OperationMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  getOperationOptions(target: unknown): OperationOptions | undefined {
    if (typeof target !== 'function') {
      return undefined;
    }
    return this.reflector.get<OperationOptions | undefined>(
      OPERATION_METADATA,
      target,
    );
  }
}
