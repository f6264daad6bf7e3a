import { describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { accountProblems, changedParams } from './account-fields';
import type { AccountValues } from './account-fields';

const initial: AccountValues = { prefix: 'MS', name: 'Ann Lee', email: 'ann@example.com', description: 'Hi', terms: true, phone: '' };

describe('settings account fields', () => {
  it('sends nothing when nothing changed (spaces around text do not count)', () => {
    expect(changedParams(initial, { ...initial, name: ' Ann Lee ' })).toEqual({});
  });

  it('sends only the changed fields, under the contract names', () => {
    expect(changedParams(initial, { ...initial, prefix: '', description: ' New text ', terms: false })).toEqual({
      prefix: '',
      description: 'New text',
      terms_accepted: false,
    });
  });

  it('requires the full name only when the user already had one', () => {
    expect(accountProblems(initial, { name: '' })).toEqual({ name: MSG.fullNameRequired });
    expect(accountProblems({ ...initial, name: '' }, { email: 'x@example.com' })).toEqual({});
  });

  it('says what is wrong with a changed email', () => {
    expect(accountProblems(initial, { email: '' })).toEqual({ email: MSG.emailRequired });
    expect(accountProblems(initial, { email: 'not-an-address' })).toEqual({ email: MSG.emailInvalid });
  });

  it('sends a changed phone number, and says what is wrong with one', () => {
    expect(changedParams(initial, { ...initial, phone: ' +1 555 123 4567 ' })).toEqual({ phone: '+1 555 123 4567' });
    expect(changedParams({ ...initial, phone: '+15551234567' }, { ...initial, phone: '' })).toEqual({ phone: '' });
    expect(accountProblems(initial, { phone: '555 123' })).toEqual({ phone: MSG.phoneInvalid });
    expect(accountProblems(initial, { phone: '+1 555 123 4567' })).toEqual({});
  });
});
