import type { Reporter, TestModule } from "vitest/node";

/** Ends the test output with one plain line, `vitest: N passed, M failed`, that CI can read. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      // A file that fails to load has no tests but is still a failure.
      if (testModule.state() === "failed" && [...testModule.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    if (skipped > 0) process.stdout.write(`vitest: ${skipped} skipped\n`);
    process.stdout.write(`vitest: ${passed} passed, ${failed} failed\n`);
  }
}
