/**
 * The conformance kit of the public API spec: `runConformance({ baseUrl })` or `runConformance({ fetch })`
 * checks any implementation against the spec's statements, each check naming its clause. Only the spec:
 * this implementation's own choices (error wording, session ids, example content) are not checked.
 * See docs/conformance.md.
 *
 * @module
 */
export { runConformance, selectChecks } from './run.ts';
export { type Clause, CLAUSES } from './clauses.ts';
export { formatReport, REPORT_FORMATS, type ReportFormat } from './format.ts';
export { applyExpectations, type Expectations, type ExpectedOutcome, readExpectations, writeExpectations } from './expectations.ts';
export { payByPost, simulatorPayment } from './payment.ts';
export { syntheticAddress } from './transport.ts';
export type { CheckoutToPay, CheckResult, CheckStatus, ConformanceOptions, ConformanceReport, FetchLike, PayCheckout } from './types.ts';
