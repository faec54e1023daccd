import { createHash } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small forum stand-in on 127.0.0.1 for tests and demos: scripted pages, robots.txt,
 * throttling sequences, conditional GETs, slow pages, and a log of what it was asked.
 * Dependency-free (node:http) so it behaves like a real server to global fetch.
 */

/** One scripted answer. */
export interface FakeResponse {
  /** A string is sent as UTF-8; a Buffer as is (for other charsets). */
  body?: string | Buffer;
  status?: number;
  headers?: Record<string, string>;
  /** Default: `text/html; charset=utf-8` for strings, `text/html` for Buffers. */
  contentType?: string;
  /** Wait this long before answering (adds to the route's delayMs). */
  delayMs?: number;
  /** Send without Content-Length, in chunks (as a streaming server would). */
  chunked?: boolean;
}

/** What a handler sees of the request. */
export interface FakeRequest {
  method: string;
  /** Path with query string. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Request body as UTF-8 (POST forms, JSON). */
  body: string;
}

export type FakeHandler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;
export type FakeStep = FakeResponse | FakeHandler;
/** A response, a handler, or a sequence served in order whose last step repeats. */
export type RouteResponse = FakeStep | readonly FakeStep[];

export interface RouteOptions {
  /** Default GET. */
  method?: string;
  /** Automatic ETag (hash of the body) and 304 on a matching If-None-Match. Default true. */
  etag?: boolean;
  /** Wait this long before every answer on this route. */
  delayMs?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  /** When the request arrived, epoch ms (sub-ms precision, comparable across forums). */
  at: number;
  /** When the answer was finished or the client went away; null while in flight. */
  doneAt: number | null;
  status: number | null;
  headers: {
    'if-none-match'?: string;
    'if-modified-since'?: string;
    'user-agent'?: string;
    cookie?: string;
  };
  body: string;
}

export interface FakeForum {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  url(path: string): string;
  route(pathWithQuery: string, response: RouteResponse, opts?: RouteOptions): void;
  remove(pathWithQuery: string, method?: string): void;
  /** Serves `text` as /robots.txt. */
  robots(text: string): void;
  /** Every request received, in arrival order. */
  readonly requests: readonly LoggedRequest[];
  /** Most requests this forum had in flight at the same moment. */
  readonly maxConcurrentPerHost: number;
  close(): Promise<void>;
}

export interface FakeForumOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  routes?: Record<string, RouteResponse>;
}

interface Route {
  steps: readonly FakeStep[];
  served: number;
  etag: boolean;
  delayMs: number;
}

const now = () => performance.timeOrigin + performance.now();
const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

export async function startFakeForum(opts: FakeForumOptions = {}): Promise<FakeForum> {
  const forum = new FakeForumServer();
  for (const [path, response] of Object.entries(opts.routes ?? {})) forum.route(path, response);
  await forum.listen(opts.port ?? 0);
  return forum;
}

class FakeForumServer implements FakeForum {
  private readonly server: Server;
  private readonly routes = new Map<string, Route>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly log: LoggedRequest[] = [];
  private inFlight = 0;
  private maxInFlight = 0;
  private port = 0;

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
    // The client closes idle keep-alive connections, never this server: with Node's 5 s
    // server timeout a request sent as it expires is reset (ECONNRESET), and a busy machine
    // lands requests in that window (undici#3141). close() ends every connection anyway.
    this.server.keepAliveTimeout = 0;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get requests(): readonly LoggedRequest[] {
    return this.log;
  }

  get maxConcurrentPerHost(): number {
    return this.maxInFlight;
  }

  url(path: string): string {
    return new URL(path, this.origin).href;
  }

  route(pathWithQuery: string, response: RouteResponse, opts: RouteOptions = {}): void {
    const steps: readonly FakeStep[] = Array.isArray(response) ? response : [response as FakeStep];
    if (steps.length === 0) throw new Error(`route ${pathWithQuery}: empty sequence`);
    this.routes.set(routeKey(opts.method ?? 'GET', pathWithQuery), {
      steps,
      served: 0,
      etag: opts.etag ?? true,
      delayMs: opts.delayMs ?? 0,
    });
  }

  remove(pathWithQuery: string, method = 'GET'): void {
    this.routes.delete(routeKey(method, pathWithQuery));
  }

  robots(text: string): void {
    this.route('/robots.txt', { body: text, contentType: 'text/plain; charset=utf-8' }, { etag: false });
  }

  listen(port = 0): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    // Slow routes and clients that timed out must not keep the test process waiting.
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry: LoggedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      at: now(),
      doneAt: null,
      status: null,
      headers: pickHeaders(req.headers),
      body: '',
    };
    this.log.push(entry);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.once('close', () => {
      this.inFlight -= 1;
      entry.doneAt = now();
    });

    try {
      entry.body = await readRequestBody(req);
      const route = this.routes.get(routeKey(entry.method, entry.path));
      if (!route) {
        entry.status = 404;
        send(res, 404, { 'content-type': 'text/html; charset=utf-8' }, Buffer.from('<h1>Not found</h1>'), false);
        return;
      }
      const step = route.steps[Math.min(route.served, route.steps.length - 1)] as FakeStep;
      route.served += 1;
      const response =
        typeof step === 'function'
          ? await step({ method: entry.method, path: entry.path, headers: req.headers, body: entry.body })
          : step;
      await this.wait(route.delayMs + (response.delayMs ?? 0));
      if (res.destroyed) return;
      entry.status = this.answer(req, res, route, response);
    } catch (error) {
      entry.status = 500;
      if (!res.headersSent && !res.destroyed) {
        send(res, 500, { 'content-type': 'text/plain' }, Buffer.from(String(error)), false);
      }
    }
  }

  /** Writes the response, or a 304 when the client's validators still match. */
  private answer(req: IncomingMessage, res: ServerResponse, route: Route, response: FakeResponse): number {
    const body =
      typeof response.body === 'string' ? Buffer.from(response.body, 'utf8') : (response.body ?? Buffer.alloc(0));
    const status = response.status ?? 200;
    const headers: Record<string, string> = {
      'content-type':
        response.contentType ??
        (typeof response.body === 'string' || response.body === undefined ? 'text/html; charset=utf-8' : 'text/html'),
    };
    for (const [name, value] of Object.entries(response.headers ?? {})) headers[name.toLowerCase()] = value;
    if (route.etag && status === 200 && headers.etag === undefined) {
      headers.etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    }

    if (status === 200 && isNotModified(req.headers, headers)) {
      const kept: Record<string, string> = {};
      if (headers.etag) kept.etag = headers.etag;
      if (headers['last-modified']) kept['last-modified'] = headers['last-modified'];
      send(res, 304, kept, Buffer.alloc(0), false);
      return 304;
    }
    send(res, status, headers, body, response.chunked ?? false);
    return status;
  }

  private wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

/** RFC 9110 §13.1: If-None-Match wins over If-Modified-Since. */
function isNotModified(request: IncomingHttpHeaders, response: Record<string, string>): boolean {
  const ifNoneMatch = request['if-none-match'];
  if (ifNoneMatch !== undefined) {
    if (!response.etag) return false;
    const bare = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(response.etag as string));
  }
  const since = request['if-modified-since'];
  const lastModified = response['last-modified'];
  if (since === undefined || lastModified === undefined) return false;
  const sinceMs = Date.parse(since);
  const modifiedMs = Date.parse(lastModified);
  return !Number.isNaN(sinceMs) && !Number.isNaN(modifiedMs) && modifiedMs <= sinceMs;
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  chunked: boolean,
): void {
  if (!chunked) {
    res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    res.end(body);
    return;
  }
  res.writeHead(status, headers);
  const CHUNK = 16 * 1024;
  for (let offset = 0; offset < body.length; offset += CHUNK) res.write(body.subarray(offset, offset + CHUNK));
  res.end();
}

function pickHeaders(headers: IncomingHttpHeaders): LoggedRequest['headers'] {
  const picked: LoggedRequest['headers'] = {};
  for (const name of ['if-none-match', 'if-modified-since', 'user-agent', 'cookie'] as const) {
    const value = headers[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

function readRequestBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
