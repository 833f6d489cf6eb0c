// How the router reads a request: route patterns compiled to regular expressions and matched (the
// first route whose path matches wins; a path that matches with another method is a 405), the
// request's method, path, query, headers and TLS peer, and its body (JSON, form, or text).
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** What matching needs of a route: its method, its path pattern, whether it takes upgrades. */
type Matchable = { readonly method: string; readonly path: string; readonly upgrade?: unknown };

/** A route with its path pattern compiled: the expression and the names of its parameters in order. */
export type Compiled<R extends Matchable> = { route: R; re: RegExp; keys: string[] };

/** The parts of an incoming request the router reads before routing it. */
export type RequestParts = {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly peerCertificate?: { readonly fingerprint256?: string; readonly raw?: Buffer } | undefined;
};

export function compile<R extends Matchable>(route: R): Compiled<R> {
  const keys: string[] = [];
  let pattern = route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  pattern = pattern.replace(/\/\*$/, () => {
    keys.push('*');
    return '(?:/(.*))?';
  });
  pattern = pattern.replace(/:(\w+)/g, (_m, k: string) => {
    keys.splice(keys.length - (keys.at(-1) === '*' ? 1 : 0), 0, k);
    return '([^/]+)';
  });
  return { route, re: new RegExp(`^${pattern}/?$`), keys };
}

/** Method, path, query, headers and the TLS peer certificate of an incoming request. */
export function requestOf(req: IncomingMessage, url: URL, method: string): RequestParts {
  const tlsSocket = req.socket as Socket & { getPeerCertificate?: () => { fingerprint256?: string; raw?: Buffer } };
  const peer = tlsSocket.getPeerCertificate ? tlsSocket.getPeerCertificate() : undefined;
  return {
    method,
    path: decodeURI(url.pathname),
    query: url.searchParams,
    headers: req.headers,
    peerCertificate: peer && Object.keys(peer).length ? peer : undefined,
  };
}

/** The route of `path` and `method` among `routes` (the first match wins), and whether any route matched the path at all. */
export function matchRoute<R extends Matchable>(
  routes: readonly Compiled<R>[],
  path: string,
  method: string,
  upgrade = false,
) {
  let pathMatched = false;
  for (const c of routes) {
    const m = c.re.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (c.route.method !== method || (upgrade && !c.route.upgrade)) continue;
    const params: Record<string, string> = {};
    c.keys.forEach((k, i) => {
      params[k] = m[i + 1] !== undefined ? decodeURIComponent(m[i + 1]!) : '';
    });
    return { match: { c, params }, pathMatched };
  }
  return { match: undefined, pathMatched };
}

/** A request body: form fields, else JSON, else the text (undefined when empty). */
export function parseBody(rawBody: Buffer, contentType: string): unknown {
  if (!rawBody.length) return undefined;
  if (contentType.includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(rawBody.toString('utf8')));
  try {
    return JSON.parse(rawBody.toString('utf8'));
  } catch {
    return rawBody.toString('utf8');
  }
}
