/**
 * Resolves in a task of its own, after whatever input and rendering the browser has waiting: long
 * work awaits it between slices so that a tap or a keypress is never held up for long. A message
 * to ourselves, not setTimeout, which browsers hold back by 4 ms once timers nest.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
