// Prints the one line CI reads, `N passed, N failed, N skipped`, from vitest's JSON reports.
// Every report named is expected: one that is missing (its run never got to the tests) counts as a failure.
import { existsSync, readFileSync } from 'node:fs';

const reports = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of reports) {
  if (!existsSync(file)) {
    console.error(`no test report at ${file}`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that failed to load fails the run without failing a test: count it.
  if (report.success === false && (report.numFailedTests ?? 0) === 0) failed += 1;
}
if (reports.length === 0) {
  console.log('0 passed, 1 failed, 0 skipped');
  process.exit(1);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
