/** The HTTP contract against the bun target (see test/_targets.ts). */
import { targets } from '../_targets.ts';
import { runContract } from './_contract.ts';

runContract(targets.bun);
