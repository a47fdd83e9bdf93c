/**
 * The published test keys of the scenario server (docs/conformance.md "Testing the desktop app"). Both are
 * test-only: their private halves are public, so no app may trust either outside its tests.
 *
 * @module
 */

/**
 * The key the scenarios sign with and issue license keys with: the test signing key of
 * docs/vectors/license-keys.json, whose public half, 9RJnq7b4Pk6ByOwOc2lu6Gp2qpF2jdBH0m6HfG2tjMY, is the
 * constant of the C# recipes in docs/updates.md and docs/licensing.md.
 */
export const SCENARIO_KEY = 'MC4CAQAwBQYDK2VwBCIEIECLN1QyWvcZMjVNRPUSldfFNhHLo/FpW/3GZWWg5A+Y';
export const SCENARIO_PUBLIC_KEY = '9RJnq7b4Pk6ByOwOc2lu6Gp2qpF2jdBH0m6HfG2tjMY';

/**
 * Another key, for the standing "signed with another key": the test key of docs/vectors/update-signatures.json
 * (public half NH1SEf_9CC1kihdDg7u98YflrG2UViZIzf9_9JI4Xv4).
 */
export const OTHER_KEY = 'MC4CAQAwBQYDK2VwBCIEIJ/lE81XRpU75kpzwnpf/638uy65DMqPzDn5SsL1IVnG';
export const OTHER_PUBLIC_KEY = 'NH1SEf_9CC1kihdDg7u98YflrG2UViZIzf9_9JI4Xv4';
