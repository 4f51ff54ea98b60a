// A stand-in app process for the cluster test: answers every request with its pid; stops on SIGTERM.
import http from 'node:http';

const [port, crash] = process.argv.slice(2);
if (crash === 'crash') process.exit(3);
const server = http.createServer((_req, res) => res.end(String(process.pid)));
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
