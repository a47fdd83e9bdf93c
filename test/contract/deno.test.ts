/** The HTTP contract against the deno target (see test/_targets.ts). */
import { targets } from '../_targets.ts';
import { runContract } from './_contract.ts';

runContract(targets.deno);
