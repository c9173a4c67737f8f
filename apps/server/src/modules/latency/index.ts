/** The latency page's hosts, as the HTTP layer's content policy must let the page reach them. */
export { latencyGroups } from './latency.routes';
