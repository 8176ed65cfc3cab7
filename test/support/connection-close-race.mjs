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

/** What a statement ended in, or 'never answered' when nothing settled it within 20 s. */
const settled = (promise) =>
  Promise.race([
    outcome(promise),
    new Promise((resolve) => setTimeout(resolve, 20_000, 'never answered').unref()),
  ]);

// A reserved connection ended while a statement waits behind one it is preparing (the driver holds it back
// until the first is described): the waiting one fails too, rather than waiting for ever.
{
  const reserved = await sql.reserve();
  const [{ pid }] = await reserved`SELECT pg_backend_pid() AS pid`;
  const closing = nextClose();
  const preparing = outcome(reserved`SELECT pg_sleep(${30})`);
  const behind = settled(reserved`SELECT ${2}::int AS two`);
  await admin`SELECT pg_terminate_backend(${pid})`;
  await closing;
  results.preparing = (await preparing) === 'resolved' ? 'resolved' : 'failed';
  results.behind = await behind;
  reserved.release();
}

// A reservation whose session ended, used after the connection came back for someone else: its statements
// are refused instead of running in the other's session, and its release leaves the other's reservation be.
{
  const one = postgres(url, {
    max: 1,
    onnotice: () => {},
    onclose: () => {
      closes++;
      for (const resolve of closed.splice(0)) resolve();
    },
  });
  const first = await one.reserve();
  const [{ pid }] = await first`SELECT pg_backend_pid() AS pid`;
  const closing = nextClose();
  await admin`SELECT pg_terminate_backend(${pid})`;
  await closing;
  const second = await one.reserve();
  await second`BEGIN`;
  await second`SET LOCAL application_name = 'second'`;
  results.lostAfterBack = await settled(first`ROLLBACK`);
  first.release();
  results.othersSession = (await second`SHOW application_name`)[0].application_name;
  await second`COMMIT`;
  second.release();
  await one.end({ timeout: 1 });
}

// A reservation waiting for the pool's one connection when its session is ended: the connection opened
// again is handed to it, rather than dropped with it (porsager/postgres#1195).
{
  const one = postgres(url, { max: 1, onnotice: () => {} });
  const first = await one.reserve();
  const [{ pid }] = await first`SELECT pg_backend_pid() AS pid`;
  const waiting = one.reserve();
  await admin`SELECT pg_terminate_backend(${pid})`;
  const second = await Promise.race([
    waiting,
    new Promise((resolve) => setTimeout(resolve, 20_000, null).unref()),
  ]);
  results.waitingReservation = second ? (await second`SELECT 1 AS one`)[0].one : 'never answered';
  first.release();
  second?.release();
  results.poolAfterWaiting = (await one`SELECT 1 AS one`)[0].one;
  await one.end({ timeout: 1 });
}

// The first thing a pool without type fetching does is reserve: its connection is opened for the
// reservation and handed to it (porsager/postgres#1219).
{
  const cold = postgres(url, { max: 1, fetch_types: false, onnotice: () => {} });
  const reserved = await Promise.race([
    cold.reserve(),
    new Promise((resolve) => setTimeout(resolve, 20_000, null).unref()),
  ]);
  results.coldReservation = reserved ? (await reserved`SELECT 1 AS one`)[0].one : 'never answered';
  reserved?.release();
  await cold.end({ timeout: 1 });
}

// The pool serves again afterwards.
results.after = (await sql`SELECT 1 AS one`)[0].one;
await Promise.all([sql.end({ timeout: 1 }), admin.end({ timeout: 1 })]);
console.log(JSON.stringify(results));
