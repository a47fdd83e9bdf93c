/**
 * The uvu context shared by the contract parts: each test gets a fresh storage of the suite's target.
 */
import type { Test } from 'uvu';
import type { OpenStorage } from '../_targets.ts';

export interface ContractContext {
  open: OpenStorage | null;
}

export type ContractSuite = Test<ContractContext>;

/** The storage of the running test. */
export function current(context: ContractContext): OpenStorage {
  if (!context.open) throw new Error('no storage is open');
  return context.open;
}
