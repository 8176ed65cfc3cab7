import Fastify from 'fastify';

// The baseline of the polling figure: a bare Fastify route that returns a small JSON body.
const app = Fastify();
app.get('/empty', async () => ({ ok: true }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`running at ${url}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
