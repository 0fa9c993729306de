import { OperationArgumentsHost } from './operation-arguments-host.js';

describe('OperationArgumentsHost', () => {
  const request = { body: { name: 'a' } };
  const response = { statusCode: 200 };
  const host = new OperationArgumentsHost([request, response]);

  it("gives filters the call's request and response, as an HTTP route's", () => {
    const http = host.switchToHttp();

    expect(host.getType()).toBe('http');
    expect(http.getRequest()).toBe(request);
    expect(http.getResponse()).toBe(response);
    expect(http.getNext()).toBeUndefined();
  });

  it('gives the arguments by index and as a whole', () => {
    expect(host.getArgs()).toEqual([request, response]);
    expect(host.getArgByIndex(0)).toBe(request);
    expect(host.getArgByIndex(1)).toBe(response);
  });

  it('reads the same arguments as an RPC or a gateway handler would', () => {
    const rpc = host.switchToRpc();
    const ws = host.switchToWs();

    expect([rpc.getData(), rpc.getContext()]).toEqual([request, response]);
    expect([ws.getClient(), ws.getData(), ws.getPattern()]).toEqual([
      request,
      response,
      response,
    ]);
  });
});
