/** The HTTP contract against the core app in this process (see test/_in-process-target.ts). */
import { inProcess } from '../_in-process-target.ts';
import { runContract } from './_contract.ts';

runContract(inProcess);
