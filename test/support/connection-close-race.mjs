// A connection whose backend goes away while the driver holds a write for it: run as its own process, since
// the driver's failure here is an exception thrown from a timer, which ends the process. Prints one JSON line
// of what each case ended in, and exits 0 when the process lived through them all.
//
// node connection-close-race.mjs <database url>
import postgres from 'postgres';

const url = process.argv[2];
let closes = 0;
const closed = [];
const sql = postgres(url, {
  max: 2,
  onnotice: () => {},
  onclose: () => {
    closes++;
    for (const resolve of closed.splice(0)) resolve();
  },
});
const admin = postgres(url, { max: 1, onnotice: () => {} });
/** Resolves once the driver has seen one more connection close than it had seen before. */
const nextClose = () => {
  const seen = closes;
  return new Promise((resolve) => (closes > seen ? resolve() : closed.push(resolve)));
};
const outcome = (promise) =>
  promise.then(
    () => 'resolved',
    (error) => error.code ?? error.message,
  );

const results = {};

// A transaction whose connection is ended under it, then whose callback throws: the driver writes ROLLBACK.
{
  const closing = nextClose();
  results.transaction = await outcome(
    sql.begin(async (tx) => {
      const [{ pid }] = await tx`SELECT pg_backend_pid() AS pid`;
      await admin`SELECT pg_terminate_backend(${pid})`;
      await closing;
      throw new Error('the work failed');
    }),
  );
}

// A reserved connection ended under its holder, who then sends a statement on it.
{
  const reserved = await sql.reserve();
  const [{ pid }] = await reserved`SELECT pg_backend_pid() AS pid`;
  const closing = nextClose();
  await admin`SELECT pg_terminate_backend(${pid})`;
  await closing;
  results.reserved = await outcome(reserved`SELECT 1`);
  reserved.release();
}

// The pool serves again afterwards.
results.after = (await sql`SELECT 1 AS one`)[0].one;
await Promise.all([sql.end({ timeout: 1 }), admin.end({ timeout: 1 })]);
console.log(JSON.stringify(results));
