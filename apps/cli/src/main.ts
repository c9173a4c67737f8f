import { main } from './cli';

// The process ends here rather than when the event loop drains: idle keep-alive sockets and
// timers must not hold a finished script.
process.exit(await main(process.argv));
