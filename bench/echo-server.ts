import Fastify from 'fastify';

// The baseline: a bare Fastify server that parses a JSON body and sends it back.
const app = Fastify({ logger: false });
app.post('/echo', async (request) => request.body);
const port = Number(process.env.PORT ?? 0);
const address = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
