// The yardstick of the benchmark: a bare Hono JSON route on @hono/node-server, started as its
// own process exactly like the vault, so the vault's figures can be read as ratios to it.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/hello', (c) => c.json({ hello: 'world' }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' }, () =>
  console.log('listening'),
);
process.on('SIGTERM', () => process.exit(0));
