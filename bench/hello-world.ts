/** The reference beside the read benchmarks: a bare Fastify hello-world on the port given (`startHelloWorld` in bench/lib.ts starts it). */
import Fastify from 'fastify';

const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
