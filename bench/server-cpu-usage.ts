// Preloaded into the bench's server process: answers the bench's 'cpu-usage' message with the process's own
// CPU time, so CPU per command is read where it is spent rather than guessed from outside.
process.on('message', (message) => {
  if (message === 'cpu-usage') process.send?.(process.cpuUsage());
});
// The channel must not keep a server alive that has been told to stop.
process.channel?.unref();
