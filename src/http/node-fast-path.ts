import type { Context } from 'hono';

/**
 * Under @hono/node-server the app runs on Node's own request and response objects (c.env
 * .incoming and .outgoing). Reading a header from `c.req` makes the adapter build a full
 * Headers object from the raw request, and adding one to a built Response copies it; both are
 * a measurable share of a small request's cost. These helpers use Node's objects when they are
 * there and Hono's otherwise (the app called in-process: app.request in the tests), with the
 * same result.
 */
interface NodeEnv {
  incoming?: { headers: Record<string, string | string[] | undefined> };
  outgoing?: { setHeader(name: string, value: string): unknown };
}

const nodeEnv = (c: Context): NodeEnv | undefined => c.env as NodeEnv | undefined;

/** A request header (name in lower case). */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = nodeEnv(c)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Whether the response goes out through Node's own response object. */
export function onNodeServer(c: Context): boolean {
  return nodeEnv(c)?.outgoing !== undefined;
}

/**
 * Sets a header that every response of this request carries, before the handler runs. On the
 * Node server it goes straight onto Node's response (Node merges it with the handler's
 * headers, which win); in-process it goes through Hono's context.
 */
export function presetHeader(c: Context, name: string, value: string): void {
  const outgoing = nodeEnv(c)?.outgoing;
  if (outgoing) outgoing.setHeader(name, value);
  else c.header(name, value);
}
