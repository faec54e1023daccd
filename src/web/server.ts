import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Hono } from 'hono';

export interface RunningServer {
  /** `http://host:port` as a browser would use it. */
  url: string;
  host: string;
  port: number;
  /** Stops accepting, ends open connections (event streams), waits for the socket to close. */
  close(): Promise<void>;
}

/** Serves a Hono app on `host:port` (0: a free port) with @hono/node-server. */
export function startHttpServer(
  app: Pick<Hono, 'fetch'>,
  opts: { host: string; port: number },
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    let server: Server;
    const onError = (error: Error): void => reject(error);
    server = serve({ fetch: app.fetch, port: opts.port, hostname: opts.host }, (info: AddressInfo) => {
      server.off('error', onError);
      const shownHost =
        opts.host === '0.0.0.0' || opts.host === '::'
          ? '127.0.0.1'
          : opts.host.includes(':')
            ? `[${opts.host}]`
            : opts.host;
      resolve({
        url: `http://${shownHost}:${info.port}`,
        host: opts.host,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
            // Event streams never go idle: end them.
            setTimeout(() => server.closeAllConnections(), 200).unref();
          }),
      });
    }) as Server;
    server.once('error', onError);
  });
}
