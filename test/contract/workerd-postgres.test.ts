/**
 * The whole HTTP contract against `npm run start:workers` on PostgreSQL: the Worker under workerd, its
 * storage over Workers' TCP sockets, behind the local front (see test/_targets.ts).
 */
import { closeTestDatabases } from '../_databases.ts';
import { targets } from '../_targets.ts';
import { runContract } from './_contract.ts';

runContract(targets['workerd-postgres'], closeTestDatabases);
