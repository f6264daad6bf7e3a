/** The account part of the settings form: its values, what changed, and what is wrong (spec part 2 §5 Settings). */
import type { CallInput } from '../../../common/api';
import type { SALUTATIONS, SessionUser } from '../../../common/api/accounts';
import { MSG } from '../../../common/messages';
import { schemaErrors } from '../../api/field-errors';
import type { FieldErrors } from '../../api/field-errors';
import * as accounts from '../../../common/api/accounts';

export type Salutation = (typeof SALUTATIONS)[number];
export type AccountParams = CallInput<typeof accounts.updateUserInfo>['params'];

export interface AccountValues {
  prefix: Salutation | '';
  name: string;
  email: string;
  description: string;
  terms: boolean;
  /** Where text messages go, as typed (saved in the international form). */
  phone: string;
}

export function accountValuesOf(user: SessionUser): AccountValues {
  const prefix = (user.gender ?? '') as Salutation | '';
  return { prefix, name: user.fullname, email: user.email, description: user.description, terms: user.terms_accepted, phone: user.phone ?? '' };
}

/** Only the fields that changed, under the names update-user-info takes. */
export function changedParams(initial: AccountValues, values: AccountValues): AccountParams {
  const params: AccountParams = {};
  if (values.prefix !== initial.prefix) params.prefix = values.prefix;
  if (values.name.trim() !== initial.name.trim()) params.name = values.name.trim();
  if (values.email.trim() !== initial.email.trim()) params.email = values.email.trim();
  if (values.description.trim() !== initial.description.trim()) params.description = values.description.trim();
  if (values.terms !== initial.terms) params.terms_accepted = values.terms;
  if (values.phone.trim() !== initial.phone.trim()) params.phone = values.phone.trim();
  return params;
}

/** Problems of the changed fields, with the contract's messages; a full name, once given, stays required. */
export function accountProblems(initial: AccountValues, params: AccountParams): FieldErrors {
  if (Object.keys(params).length === 0) return {};
  const problems = schemaErrors(accounts.updateUserInfo.input, { id: 1, params }, 'params');
  if (params.name === '' && initial.name.trim() !== '') problems.name = MSG.fullNameRequired;
  return problems;
}
