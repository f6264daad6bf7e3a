/**
 * node-media-server 4.4.3 skips its RTMP listener for port 0 and calls process.exit(1) when the port
 * is taken; so the port is checked (or an ephemeral one picked) here first, where failing is an error.
 */
import net from 'node:net';

export function claimPort(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `RTMP port ${port} is already in use` : `RTMP port ${port}: ${err.message}`)),
    );
    probe.listen(port, host, () => {
      const bound = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(bound));
    });
  });
}
