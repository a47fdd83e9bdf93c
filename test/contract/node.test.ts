/** The HTTP contract against the node target (see test/_targets.ts). */
import { targets } from '../_targets.ts';
import { runContract } from './_contract.ts';

runContract(targets.node);
