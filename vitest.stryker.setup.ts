import fc from 'fast-check';

// Under mutation testing a property stops after three seconds and passes if no counterexample was found by
// then: a mutant almost always fails within the first runs, and the full run counts stay in `npm test`. (A
// surviving mutant reruns every property that covers it, so this limit sets the pace of a whole run.)
// The fixed seed matters more: `@fast-check/vitest` names each property test "… (with seed=N)", and Stryker
// reruns the tests that covered a mutant by name. With a random seed per run the names of the initial run
// never match again, so no property test ran against a mutant (true of the figures in the README).
fc.configureGlobal({ interruptAfterTimeLimit: 3_000, markInterruptAsFailure: false, seed: 20_261_123 });
