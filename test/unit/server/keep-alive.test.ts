import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { keepConnectionsAlive } from '../../../lib/server/keep-alive';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listening(configure: (s: http.Server) => void): Promise<number> {
  const server = http.createServer((_req, res) => res.end('ok'));
  configure(server);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as net.AddressInfo).port;
}

/** Sends a request on the socket and resolves with whether an answer came (false once the server has closed it). */
function ask(socket: net.Socket): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed || socket.readableEnded) return resolve(false);
    const onData = (chunk: Buffer) => { cleanup(); resolve(chunk.toString().startsWith('HTTP/1.1 200')); };
    const onEnd = () => { cleanup(); resolve(false); };
    const cleanup = () => { socket.off('data', onData); socket.off('end', onEnd); socket.off('error', onEnd); };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onEnd);
    socket.write('GET / HTTP/1.1\r\nHost: test\r\n\r\n');
  });
}

async function answersAfterIdle(port: number, idleMs: number): Promise<boolean> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  try {
    expect(await ask(socket)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    return await ask(socket);
  } finally {
    socket.destroy();
  }
}

describe('keep-alive connections', () => {
  it('stay open past the 5 s at which Node closes them by default', async () => {
    const kept = await listening((s) => keepConnectionsAlive(s));
    const plain = await listening(() => {});
    const [a, b] = await Promise.all([answersAfterIdle(kept, 6_000), answersAfterIdle(plain, 6_000)]);
    expect(a).toBe(true);
    expect(b).toBe(false);
  }, 20_000);
});
