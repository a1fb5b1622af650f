import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, MAX_PATH_PARAM_LENGTH, pathParameterTooLong } from '../errors.ts';

/**
 * Serves the built dashboard (dashboard/dist, see dashboard/build.mjs) at `/`: hashed assets with a
 * year-long immutable cache, index.html never cached, and index.html for any other GET of a page
 * (the dashboard routes in the browser). `/v1` and `/dashboard/api` are never answered here.
 */

const DIST = fileURLToPath(new URL('../../dashboard/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

// Profile pictures and content images come from the customer's https hosts; everything else is ours.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

interface Asset {
  body: Buffer;
  gzipped: Buffer | null;
  type: string;
  immutable: boolean;
}

function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(join(dir, 'index.html'))) return assets;
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      if (name.startsWith('.')) continue;
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      const body = readFileSync(path);
      const type = TYPES[extname(name)] ?? 'application/octet-stream';
      const compressible = /text|javascript|json|svg/.test(type) && body.length > 1024;
      const urlPath = `/${relative(dir, path).split(sep).join('/')}`;
      assets.set(urlPath, { body, gzipped: compressible ? gzipSync(body, { level: 9 }) : null, type, immutable: urlPath.startsWith('/assets/') });
    }
  };
  walk(dir);
  return assets;
}

const isServerPath = (path: string) => path === '/v1' || path.startsWith('/v1/') || path === '/dashboard/api' || path.startsWith('/dashboard/api/');

export async function dashboardAppRoutes(app: FastifyInstance, options: { distDir?: string } = {}): Promise<void> {
  const assets = loadAssets(options.distDir ?? DIST);
  if (assets.size === 0) app.log.warn('The dashboard is not built (dashboard/dist is missing): run `npm run build:dashboard`. The API is unaffected.');
  const index = assets.get('/index.html');

  const send = (request: FastifyRequest, reply: FastifyReply, asset: Asset) => {
    reply.header('content-type', asset.type);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (asset.type.startsWith('text/html')) {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'no-referrer');
    }
    if (asset.gzipped) {
      reply.header('vary', 'accept-encoding');
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
        reply.header('content-encoding', 'gzip');
        return reply.send(asset.gzipped);
      }
    }
    return reply.send(asset.body);
  };

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    if (isServerPath(path)) {
      // The catch-all matched where the router refused a parameter over its bound: answer as it would have.
      if (path.split('/').some((segment) => segment.length > MAX_PATH_PARAM_LENGTH)) throw pathParameterTooLong();
      return reply.callNotFound();
    }
    const asset = assets.get(path);
    if (asset && path !== '/index.html') return send(request, reply, asset);
    // A missing hashed asset is a 404, never the page: a stale tab must not parse HTML as script.
    if (path.startsWith('/assets/')) return reply.callNotFound();
    const accept = String(request.headers.accept ?? '');
    if (!accept.includes('text/html')) return reply.callNotFound();
    if (!index) throw new ApiError('SERVICE_UNAVAILABLE', 'The dashboard is not built: run `npm run build:dashboard` (the API at /v1 works)');
    return send(request, reply, index);
  };

  app.get('/', { schema: { hide: true } }, serve);
  app.get('/*', { schema: { hide: true } }, serve);
}
