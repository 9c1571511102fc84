// Ends the run with one plain line, `tests: N passed, N failed, N skipped`, that CI tooling reads
// regardless of the test runner.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    process.stdout.write(
      `\ntests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped\n`,
    );
  }
}

module.exports = SummaryReporter;
