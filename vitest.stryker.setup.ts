import fc from 'fast-check';

// Under mutation testing a property stops after fifteen seconds and passes if no counterexample was found by
// then: a mutant almost always fails within the first runs, and the full run counts stay in `npm test`.
fc.configureGlobal({ interruptAfterTimeLimit: 15_000, markInterruptAsFailure: false });
