/** The smoke subset of the HTTP contract against the Worker under workerd (see test/_targets.ts). */
import { targets } from '../_targets.ts';
import { runContract } from './_contract.ts';

runContract(targets.workerd);
