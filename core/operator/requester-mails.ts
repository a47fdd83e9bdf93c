/**
 * The per-feature switch of the shipped-request mails (core/mail/shipped-requests.ts): a feature whose
 * requesters are not to be told (a feature shipped quietly, or one that many asked for by mistake). The
 * global switch is the config's `mail.requestersTold`.
 *
 * @module
 */
import * as v from 'valibot';
import { operatorChange } from './context.ts';
import { OperatorError } from './errors.ts';
import { defineOperation } from './operation.ts';
import { idOf } from './roadmap.ts';

export const RequesterMailsSchema = v.strictObject({
  enabled: v.pipe(v.boolean(), v.description('false: the requesters linked to this feature are not told when it ships; true: they are (the default).')),
});

export const setRequesterMails = defineOperation({
  operationId: 'setRequesterMails',
  method: 'PUT',
  path: '/roadmap/:id/requester-mails',
  summary: 'Whether the requesters linked to a feature are told when it ships ({"enabled": false} turns it off for this feature; ' +
    'those told already were told). Audited.',
  body: RequesterMailsSchema,
  output: v.object({ id: v.number(), enabled: v.boolean() }),
  status: 200,
  errors: ['feature_not_found'],
  async run(context, { params, body }, caller) {
    const id = idOf(params.id);
    return operatorChange(context, caller, async (tx) => {
      if (!(await tx.features.list()).some((feature) => feature.id === id)) throw new OperatorError('feature_not_found', `No roadmap feature has id ${id}.`);
      const was = !(await tx.shipping.mailsOff()).includes(id);
      if (was !== body.enabled) await tx.shipping.setFeatureMails(id, body.enabled);
      const audit = was === body.enabled ? null : { action: body.enabled ? 'roadmap.requester_mails_on' : 'roadmap.requester_mails_off', target: String(id) };
      return { result: { id, enabled: body.enabled }, audit };
    });
  },
});
